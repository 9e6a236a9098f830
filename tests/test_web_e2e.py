"""The web page end to end in headless Chromium (Debian `chromium` + `chromium-driver`): fill in the record
form, submit it, read the eligibility result from the page, and save a screenshot under the test's tmp folder.

A Bootsfrau with 179 days as Bootsfrau cannot be issued the Steuermann UBZ (§ 14 Z 1 lit. a SchBV: 180 days);
with 180 days she can. Both are driven through the form, the first also through the file upload."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import httpx
import pytest
import yaml

from servers import Served

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

pytestmark = [pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="needs Debian's chromium and chromium-driver in /usr/bin (apt-get install -y chromium chromium-driver; .ci/run installs them)",
), pytest.mark.xdist_group("test_web_e2e")]  # one server and one browser, on one worker


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    served = Served(tmp_path_factory.mktemp("web"), ["--data", str(EXAMPLES), "--as-of", "2026-11-30"])
    yield served.url
    served.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    profile = tmp_path_factory.mktemp("chromium-profile")
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                "--window-size=1280,1600"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _wait(driver, condition, timeout=60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(condition)


def _fill_the_form(driver, url: str, days_as_bootsmann: int) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/")
    _wait(driver, ec.presence_of_element_located((By.ID, "days-Bootsmann")))
    _wait(driver, ec.presence_of_element_located((By.ID, "certificates-UBZ-Bootsmann")))
    field = driver.find_element(By.ID, "person-id")
    field.clear()
    field.send_keys("katharina")
    # date inputs take keyboard input in the browser's locale; set their ISO value as a script would
    driver.execute_script("document.getElementById('birth-date').value = '1995-05-17';"
                          "document.getElementById('as-of').value = '2026-11-30';")
    Select(driver.find_element(By.ID, "medical")).select_by_value("yes")
    driver.find_element(By.ID, "radio").click()
    driver.find_element(By.ID, "safety").click()
    driver.find_element(By.ID, "days-Matrose").send_keys("400")
    driver.find_element(By.ID, "days-Bootsmann").send_keys(str(days_as_bootsmann))
    driver.find_element(By.ID, "exams-Anlage8").click()
    driver.find_element(By.ID, "certificates-UBZ-Bootsmann").click()


def _result(driver, certificate: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    return _wait(driver, ec.visibility_of_element_located((By.CSS_SELECTOR, f'tr[data-certificate="{certificate}"] .verdict')))


def _screenshot(driver, path: Path) -> None:
    """The whole page, not only the window (Chromium's DevTools capture beyond the viewport)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "clip": {
        "x": 0, "y": 0, "width": 1280, "height": height, "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))


def test_179_days_as_Bootsfrau_the_page_says_the_Steuermann_UBZ_cannot_be_issued_and_why(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    _fill_the_form(browser, server, 179)
    browser.find_element(By.ID, "submit").click()
    verdict = _result(browser, "UBZ-Steuermann")
    assert verdict.get_attribute("data-eligible") == "false"
    assert "nicht ausstellbar" in verdict.text
    assert _result(browser, "UBZ-Bootsmann").get_attribute("data-eligible") == "true"
    missing = browser.find_element(By.CSS_SELECTOR, '#missing [data-certificate="UBZ-Steuermann"]').text
    assert "noch 1 Tag Fahrzeit als Bootsfrau bzw. Bootsmann (§ 14 Z 1 lit. a SchBV)" in missing
    roles = browser.find_element(By.ID, "roles").text
    assert "Bootsfrau bzw. Bootsmann" in roles
    if httpx.get(server + "/health").json()["optional"]["career_graph"]:  # crewkg.careers and crewkg.pictures exist
        image = browser.find_element(By.CSS_SELECTOR, "#career img")
        _wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    shot = tmp_path / "eligibility-179-days.png"
    _screenshot(browser, shot)
    assert shot.stat().st_size > 20_000


def test_180_days_as_Bootsfrau_the_page_says_the_Steuermann_UBZ_can_be_issued(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    _fill_the_form(browser, server, 180)
    browser.find_element(By.ID, "submit").click()
    verdict = _result(browser, "UBZ-Steuermann")
    assert verdict.get_attribute("data-eligible") == "true"
    assert "ausstellbar" in verdict.text and "nicht" not in verdict.text
    row = browser.find_element(By.CSS_SELECTOR, 'tr[data-certificate="UBZ-Steuermann"]').text
    assert "✓ § 14 Z 1 SchBV" in row
    _screenshot(browser, tmp_path / "eligibility-180-days.png")


def test_an_uploaded_record_file_gives_the_same_result(server, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    record = tmp_path / "katharina.yaml"
    record.write_text(yaml.safe_dump({"id": "katharina", "birth_date": "1995-05-17", "medical_fitness": True,
                                      "radio_certificate": True, "sailing_days": {"Matrose": 400, "Bootsmann": 179},
                                      "exams": ["Anlage8"], "certificates": ["UBZ-Bootsmann"]}), encoding="utf-8")
    browser.get(server + "/")
    _wait(browser, ec.presence_of_element_located((By.ID, "days-Bootsmann")))
    browser.execute_script("document.getElementById('as-of').value = '2026-11-30';")
    browser.find_element(By.ID, "upload").send_keys(str(record))
    browser.find_element(By.ID, "upload-button").click()
    assert _result(browser, "UBZ-Steuermann").get_attribute("data-eligible") == "false"
    assert "katharina" in browser.find_element(By.ID, "summary").text


def test_a_bad_record_shows_the_message_naming_the_field(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    _fill_the_form(browser, server, 179)
    field = browser.find_element(By.ID, "person-id")
    field.clear()
    field.send_keys("no spaces allowed")
    browser.find_element(By.ID, "submit").click()
    error = _wait(browser, ec.visibility_of_element_located((By.ID, "error")))
    assert "'id'" in error.text and "letters, digits" in error.text


def test_the_canned_query_page_runs_a_query_through_the_endpoint(server, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    browser.get(server + "/queries")
    button = _wait(browser, ec.element_to_be_clickable((By.CSS_SELECTOR, 'button[data-query="anlage9-pathways"]')))
    button.click()
    table = _wait(browser, ec.visibility_of_element_located((By.ID, "result-table")))
    assert "§ 15 Z 2 lit. d SchBV" in table.text and "§ 15 Z 3 lit. c SchBV" in table.text
    _screenshot(browser, tmp_path / "queries.png")


def test_a_canned_query_about_each_person_comes_a_page_of_persons_at_a_time(server, browser):
    """roles-per-person through /api/queries/<name>: the table, and under it how many persons it shows; the 20
    example persons fit on the first page of 50, so there is no further page to ask for."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    browser.get(server + "/queries")
    button = _wait(browser, ec.element_to_be_clickable((By.CSS_SELECTOR, 'button[data-query="roles-per-person"]')))
    button.click()
    _wait(browser, ec.visibility_of_element_located((By.ID, "paging")))
    persons = len([p for p in EXAMPLES.iterdir() if p.suffix in {".yaml", ".json", ".ttl"}])
    assert browser.find_element(By.ID, "page-status").text == f"{persons} Personen gezeigt, alle"
    assert not browser.find_element(By.ID, "more").is_enabled()
    table = browser.find_element(By.ID, "result-table")
    assert "franz-huber" in table.text and "Matrose" in table.text


EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"


def test_a_malformed_query_on_the_german_page_is_refused_in_german(server, browser):
    """The page asks /sparql in its own language, so the service's refusal is German to its first word."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    browser.get(server + "/queries?lang=de")
    _wait(browser, ec.element_to_be_clickable((By.CSS_SELECTOR, 'button[data-query="anlage9-pathways"]')))
    field = browser.find_element(By.ID, "query-text")
    field.clear()
    field.send_keys("SELECT nope")
    browser.find_element(By.ID, "run").click()
    error = _wait(browser, ec.visibility_of_element_located((By.ID, "error")))
    assert error.text.startswith("Fehlerhafte Abfrage:")


def test_an_uploaded_service_log_shows_since_when_and_the_credited_days(server, browser, tmp_path):
    """Franz's Schifferdienstbuch (kb/examples): UBZ Matrose issuable since the Anlage 8 exam on 2025-03-10
    (§ 12 Z 2 SchBV), the Bootsmann UBZ since his 180th credited day as Matrose on 2025-09-27 (§ 13 Z 1 SchBV);
    the credited days of § 13 Z 1 beside the 99 days of 2026 the cap of 180 in 365 days leaves out."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    browser.get(server + "/")
    _wait(browser, ec.presence_of_element_located((By.ID, "days-Bootsmann")))
    browser.execute_script("document.getElementById('as-of').value = '2026-11-30';")
    browser.find_element(By.ID, "upload").send_keys(str(EXAMPLES / "20-franz-schifferdienstbuch.yaml"))
    browser.find_element(By.ID, "upload-button").click()
    assert _result(browser, "UBZ-Matrose").get_attribute("data-eligible") == "true"
    since = browser.find_element(By.CSS_SELECTOR, 'tr[data-certificate="UBZ-Matrose"] .since')
    assert since.text == "ausstellbar seit 2025-03-10"
    assert browser.find_element(By.CSS_SELECTOR, 'tr[data-certificate="UBZ-Bootsmann"] .since').text == "ausstellbar seit 2025-09-27"
    assert not browser.find_elements(By.CSS_SELECTOR, 'tr[data-certificate="UBZ-Steuermann"] .since')
    assert browser.find_element(By.ID, "credits-title").text == "Fahrzeit aus dem Schifferdienstbuch"
    line = browser.find_element(By.CSS_SELECTOR, '#credits [data-requirement="Req-SchBV2022-P13-Z1"]').text
    assert "(§ 13 Z 1 SchBV): 360 Tage angerechnet, 459 Tage eingetragen" in line
    assert "99 Tage wegen der Höchstgrenze nicht anrechenbar" in line
    _screenshot(browser, tmp_path / "service-log.png")


def test_a_pasted_log_awaiting_validation_shows_the_days_not_validated(server, browser):
    """Sofia's last season is entered but not validated: 249 credited of 436 recorded days, 183 not validated,
    so § 12 Z 2 lit. c SchBV (360 days) is not met; in English when the page is switched to English."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select

    browser.get(server + "/")
    _wait(browser, ec.presence_of_element_located((By.ID, "days-Bootsmann")))
    Select(browser.find_element(By.ID, "lang")).select_by_value("en")
    browser.execute_script("document.getElementById('as-of').value = '2026-11-30';")
    text = (EXAMPLES / "23-sofia-awaiting-validation.yaml").read_text(encoding="utf-8")
    browser.execute_script("document.getElementById('paste').value = arguments[0];", text)
    browser.find_element(By.ID, "paste-button").click()
    assert _result(browser, "UBZ-Matrose").get_attribute("data-eligible") == "false"
    line = _wait(browser, ec.visibility_of_element_located(
        (By.CSS_SELECTOR, '#credits [data-certificate="UBZ-Matrose"] [data-requirement="Req-SchBV2022-P12-Z2-c-1"]'))).text
    assert line == ("at least 360 days of sailing time (§ 12 Z 2 lit. c SchBV): 249 days credited, 436 days recorded, "
                    "of which 183 days not validated and 4 days over the cap")
    assert browser.find_element(By.CSS_SELECTOR, 'tr[data-certificate="UBZ-Decksmann"] .since').text == "issuable since 2024-10-27"
