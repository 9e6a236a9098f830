"""One FastAPI router per capability of the service; `service.app.create_app` includes them in this order."""
