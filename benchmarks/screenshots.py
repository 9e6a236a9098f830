"""Screenshots of crewkg's pictures and web page, for anyone to look at (`python benchmarks/screenshots.py`).

Generates, with the `crewkg` commands, the interactive career graph (`paths --format html`), the static career graph
(`paths --format svg`), a planned route (`plan PERSON --target T --out route.svg`) and a cohort report
(`cohort COHORT --target T --out report.html`), then photographs each in headless Chromium (Debian's `chromium` and
`chromium-driver`, driven by selenium from the test extras), and the web form served by a local `crewkg serve`
(127.0.0.1, a free port) after an example person has been submitted. Writes the generated files and the PNGs into
--out (default `screenshots/`, ignored by git) and prints every file written, the PNGs with their pixel size.

Nothing is loaded from the internet: every page is self-contained or served by the package. Without Chromium the
pictures are still generated and the screenshots are skipped with a note (exit code 0).
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PERSON = ROOT / "kb" / "examples" / "persons" / "07-katharina-bootsmann-to-steuermann.yaml"
COHORT = ROOT / "kb" / "examples" / "cohorts" / "schifffahrtsschule-2026.csv"
CHROMIUM = Path(os.environ.get("CREWKG_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CREWKG_CHROMEDRIVER", "/usr/bin/chromedriver"))
AS_OF = "2026-11-30"
WIDTH = 1400


def crewkg(*args: str, env: dict[str, str]) -> None:
    """One crewkg command in a fresh interpreter (the same Python as this script)."""
    cmd = [sys.executable, "-c", "from crewkg.cli import app; app()", *args]
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def generate(out: Path, lang: str, target: str, cohort_target: str, env: dict[str, str]) -> dict[str, Path]:
    """The pictures and pages, by the commands a user runs."""
    files = {"graph_html": out / "career-graph.html", "graph_svg": out / "career-graph.svg",
             "route_svg": out / "route.svg", "cohort_html": out / "cohort-report.html"}
    crewkg("paths", "--format", "html", "--out", str(files["graph_html"]), "--lang", lang, env=env)
    crewkg("paths", "--format", "svg", "--out", str(files["graph_svg"]), "--lang", lang, env=env)
    crewkg("plan", str(PERSON), "--target", target, "--as-of", AS_OF, "--out", str(files["route_svg"]), "--lang", lang, env=env)
    crewkg("cohort", str(COHORT), "--target", cohort_target, "--as-of", AS_OF, "--out", str(files["cohort_html"]),
           "--lang", lang, env=env)
    return files


def browser(profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--hide-scrollbars",
                f"--user-data-dir={profile}", f"--window-size={WIDTH},1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    return driver


def shoot(driver, path: Path, element: str | None = None) -> None:
    """The whole page (beyond the window, through Chromium's DevTools), or one element of it."""
    if element:
        rect = driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                     "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height};",
                                     element)
    else:
        rect = driver.execute_script("const d = document.documentElement; return {x: 0, y: 0,"
                                     "width: Math.max(d.scrollWidth, d.clientWidth), height: Math.max(d.scrollHeight, d.clientHeight)};")
    clip = {k: float(rect[k]) for k in ("x", "y", "width", "height")} | {"scale": 1}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "clip": clip})
    path.write_bytes(base64.b64decode(shot["data"]))


def _wait(driver, condition, timeout: float = 60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(condition)


def shoot_pictures(driver, files: dict[str, Path], out: Path) -> list[Path]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    shots = []
    driver.get(files["graph_html"].resolve().as_uri())
    _wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#graph canvas")))
    _wait(driver, lambda d: d.execute_script("return window.crewkgReady === true"))
    shots.append(out / "career-graph-html.png")
    shoot(driver, shots[-1])
    for key, name in (("graph_svg", "career-graph-svg.png"), ("route_svg", "route-svg.png")):
        driver.get(files[key].resolve().as_uri())
        shots.append(out / name)
        shoot(driver, shots[-1])
    driver.get(files["cohort_html"].resolve().as_uri())
    _wait(driver, ec.presence_of_element_located((By.TAG_NAME, "table")))
    shots.append(out / "cohort-report.png")
    shoot(driver, shots[-1])
    return shots


def serve(port: int, env: dict[str, str], log: Path) -> subprocess.Popen:
    import httpx

    cmd = [sys.executable, "-c", "from crewkg.cli import app; app()", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("w") as sink:
        proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"crewkg serve stopped:\n{log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.terminate()
            raise RuntimeError(f"crewkg serve did not answer within 120 s:\n{log.read_text()}")
        time.sleep(0.3)


def shoot_web(driver, url: str, out: Path, lang: str, target: str) -> list[Path]:
    """The form with its target list, then the answer for the example person uploaded as a file."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/")
    _wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#target option")))
    if lang != "de":
        Select(driver.find_element(By.ID, "lang")).select_by_value(lang)
        _wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == lang)
        _wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#target option")))
    Select(driver.find_element(By.ID, "target")).select_by_value(target)
    driver.execute_script(f"document.getElementById('as-of').value = '{AS_OF}';")
    shots = [out / "web-form.png"]
    shoot(driver, shots[-1], "#record-form")
    driver.find_element(By.ID, "upload").send_keys(str(PERSON))
    driver.find_element(By.ID, "upload-button").click()
    _wait(driver, ec.visibility_of_element_located((By.CSS_SELECTOR, "#career img")))
    _wait(driver, lambda d: d.execute_script("const i = document.querySelector('#career img');"
                                             "return i.complete && i.naturalWidth > 0"))
    driver.execute_script("document.getElementById('result').scrollIntoView()")
    shots.append(out / "web-result.png")
    shoot(driver, shots[-1])
    shots.append(out / "web-career.png")
    shoot(driver, shots[-1], "#career")
    driver.find_element(By.CSS_SELECTOR, '#career button[data-zoom="in"]').click()
    driver.find_element(By.CSS_SELECTOR, '#career button[data-zoom="in"]').click()
    shots.append(out / "web-career-zoomed.png")
    shoot(driver, shots[-1], "#career")
    return shots


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("screenshots"), help="folder for the pictures and PNGs (default: screenshots/)")
    ap.add_argument("--lang", choices=("de", "en"), default="de")
    ap.add_argument("--target", default="UBZ-Steuermann", help="target of the route picture and the web form (default: UBZ-Steuermann)")
    ap.add_argument("--cohort-target", default="UBZ-Matrose")
    ap.add_argument("--no-web", action="store_true", help="skip the served web page")
    args = ap.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="crewkg-shots-"))
    env = dict(os.environ, CREWKG_CACHE=str(work / "cache"))
    written: list[Path] = []
    try:
        files = generate(out, args.lang, args.target, args.cohort_target, env)
        written += files.values()
        if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
            print(f"no screenshots: needs {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)")
        elif importlib.util.find_spec("selenium") is None:
            print("no screenshots: needs selenium (pip install -e '.[test]')")
        else:
            driver = browser(work / "profile")
            try:
                written += shoot_pictures(driver, files, out)
                if not args.no_web:
                    proc = serve(free_port(), env, work / "serve.log")
                    try:
                        written += shoot_web(driver, f"http://127.0.0.1:{proc.args[-1]}", out, args.lang, args.target)
                    finally:
                        proc.terminate()
                        proc.wait(10)
            finally:
                driver.quit()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in written:
        size = "{}x{} px".format(*png_size(f)) if f.suffix == ".png" else f"{f.stat().st_size} bytes"
        print(f"{f}  {size}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
