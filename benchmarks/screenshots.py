"""Screenshots of every picture and page crewkg makes, as a user sees them on a 1 280 × 800 screen
(`python benchmarks/screenshots.py`).

Generates, with the `crewkg` commands a user runs, the route picture of a holder of a certificate (`plan PERSON
--target T --out route.png|svg|html`), the career graph (`paths --out career-graph.png|svg|html`), a timeline with
days not yet validated (`timeline PERSON --out timeline.png|html`) and a cohort report (`cohort COHORT --out
report.html`); then opens each in headless Chromium (Debian's `chromium` and `chromium-driver`, driven by selenium
from the test extras) in a window 1 280 pixels wide, and the web form served by a local `crewkg serve` (127.0.0.1, a
free port) with its answers for an example person and for the boatmaster whose medical proof is overdue. Of every
page it saves the first screen (`NAME.png`, 1 280 × 800) and the whole page (`NAME-full.png`), and of every HTML page
it checks that nothing is wider than the window (`document.documentElement.scrollWidth` ≤ 1 280): a page that scrolls
sideways is named and the script exits with 1. Writes the generated files and the PNGs into --out (default
`benchmarks/screenshots/`, ignored by git) and prints every file written, the PNGs with their pixel size.

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
EXAMPLES = ROOT / "kb" / "examples" / "persons"
PERSON = EXAMPLES / "02-piotr-sea-deckhand.yaml"  # holds the UBZ Decksmann
WAITING = EXAMPLES / "23-sofia-awaiting-validation.yaml"  # days recorded, not yet validated
OVERDUE = EXAMPLES / "32-helga-boatmaster-at-70.yaml"  # a boatmaster whose medical proof is overdue
COHORT = ROOT / "kb" / "examples" / "cohorts" / "schifffahrtsschule-2026.csv"
CHROMIUM = Path(os.environ.get("CREWKG_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CREWKG_CHROMEDRIVER", "/usr/bin/chromedriver"))
AS_OF = "2026-11-30"
WIDTH, HEIGHT = 1280, 800


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
    files = {f"route_{x}": out / f"route.{x}" for x in ("png", "svg", "html")}
    files |= {f"graph_{x}": out / f"career-graph.{x}" for x in ("png", "svg", "html")}
    files |= {f"timeline_{x}": out / f"timeline.{x}" for x in ("png", "html")}
    files["cohort_html"] = out / "cohort-report.html"
    common = ("--as-of", AS_OF, "--lang", lang)
    for x in ("png", "svg", "html"):
        crewkg("plan", str(PERSON), "--target", target, "--out", str(files[f"route_{x}"]), *common, env=env)
        crewkg("paths", "--out", str(files[f"graph_{x}"]), "--lang", lang, env=env)
    for x in ("png", "html"):
        crewkg("timeline", str(WAITING), "--out", str(files[f"timeline_{x}"]), *common, env=env)
    crewkg("cohort", str(COHORT), "--target", cohort_target, "--out", str(files["cohort_html"]), *common, env=env)
    return files


def browser(profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
                f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    # the window's outer size includes no frame in headless mode; make the page's own viewport 1 280 × 800
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
    return driver


def shoot(driver, out: Path, name: str, element: str | None = None) -> list[Path]:
    """The first screen (`name.png`, the window as it opens) and the whole page (`name-full.png`, beyond the window,
    through Chromium's DevTools), or one element of the page (`name.png`)."""
    if element:
        rect = driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                     "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height};",
                                     element)
        views = {name: rect}
    else:
        full = driver.execute_script("const d = document.documentElement; return {x: 0, y: 0,"
                                     "width: Math.max(d.scrollWidth, d.clientWidth), height: Math.max(d.scrollHeight, d.clientHeight)};")
        top = driver.execute_script("return {x: scrollX, y: scrollY, width: innerWidth, height: innerHeight};")
        views = {name: top, f"{name}-full": full}
    shots = []
    for stem, rect in views.items():
        clip = {k: float(rect[k]) for k in ("x", "y", "width", "height")} | {"scale": 1}
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "clip": clip})
        shots.append(out / f"{stem}.png")
        shots[-1].write_bytes(base64.b64decode(shot["data"]))
    return shots


def too_wide(driver, name: str) -> str | None:
    """The page's width beyond the window, if any ('NAME: 2342 px wide'), else None."""
    width = driver.execute_script("return document.documentElement.scrollWidth")
    return f"{name}: {width} px wide, more than {WIDTH}" if width > WIDTH else None


def _wait(driver, condition, timeout: float = 60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(condition)


def shoot_pictures(driver, files: dict[str, Path], out: Path, wide: list[str]) -> list[Path]:
    """Every generated file as the browser shows it; the HTML pages checked for their width."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    shots = []
    for key, path in files.items():
        name = path.name.replace(".", "-")
        driver.get(path.resolve().as_uri())
        if key in ("graph_html", "route_html"):
            _wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#graph canvas")))
            _wait(driver, lambda d: d.execute_script("return window.crewkgReady === true"))
        elif key == "cohort_html":
            _wait(driver, ec.presence_of_element_located((By.TAG_NAME, "table")))
        if path.suffix == ".html":
            wide.append(too_wide(driver, path.name))
        shots += shoot(driver, out, name)
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


def _answer(driver, record: Path) -> None:
    """Upload a record with the form's own button and wait for the answer and its picture."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    driver.execute_script("document.getElementById('result').classList.add('hidden');")
    driver.find_element(By.ID, "upload").send_keys(str(record))
    driver.find_element(By.ID, "upload-button").click()
    _wait(driver, ec.visibility_of_element_located((By.CSS_SELECTOR, "#career img")))
    _wait(driver, lambda d: d.execute_script("const i = document.querySelector('#career img');"
                                             "return i.complete && i.naturalWidth > 0"))
    driver.execute_script("document.getElementById('result').scrollIntoView()")


def shoot_web(driver, url: str, out: Path, lang: str, wide: list[str]) -> list[Path]:
    """The form with its default target, then the answer for the example person and for the overdue boatmaster
    (each uploaded as a file, the target the page chose), and the other pages of the service."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/")
    _wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#target option")))
    if lang != "de":
        Select(driver.find_element(By.ID, "lang")).select_by_value(lang)
        _wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == lang)
        _wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#target option")))
    driver.execute_script(f"document.getElementById('as-of').value = '{AS_OF}';")
    wide.append(too_wide(driver, "web form"))
    shots = shoot(driver, out, "web-form")
    for stem, record in (("web-answer", PERSON), ("web-answer-overdue", OVERDUE)):
        _answer(driver, record)
        wide.append(too_wide(driver, stem))
        shots += shoot(driver, out, stem)
        shots += shoot(driver, out, f"{stem}-career", "#career")
    for page in ("queries", "docs", "onto", "kb/UBZ-Matrose"):  # the canned queries, the API, the ontology, a kb term
        driver.get(f"{url}/{page}?lang={lang}")
        time.sleep(1.0)
        wide.append(too_wide(driver, f"/{page}"))
        shots += shoot(driver, out, "web-" + page.replace("/", "-"))
    return shots


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "screenshots",
                    help="folder for the pictures and PNGs (default: benchmarks/screenshots/)")
    ap.add_argument("--lang", choices=("de", "en"), default="de")
    ap.add_argument("--target", default="UBZ-Schiffsfuehrer", help="target of the route picture (default: UBZ-Schiffsfuehrer)")
    ap.add_argument("--cohort-target", default="UBZ-Matrose")
    ap.add_argument("--no-web", action="store_true", help="skip the served web pages")
    args = ap.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="crewkg-shots-"))
    env = dict(os.environ, CREWKG_CACHE=str(work / "cache"))
    written: list[Path] = []
    wide: list[str | None] = []
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
                written += shoot_pictures(driver, files, out, wide)
                if not args.no_web:
                    proc = serve(free_port(), env, work / "serve.log")
                    try:
                        written += shoot_web(driver, f"http://127.0.0.1:{proc.args[-1]}", out, args.lang, wide)
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
    problems = [w for w in wide if w]
    for w in problems:
        print(f"too wide: {w}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
