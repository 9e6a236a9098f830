"""Every sentence crewkg prints, per language. Lower layers hand data up; faces ask here for the words."""
