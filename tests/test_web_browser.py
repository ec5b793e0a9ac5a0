"""The rules page in a real browser: the real server (`rulesref serve`) in a subprocess, and
the system's headless Chromium driven through selenium and the system chromedriver (Debian's
`chromium` and `chromium-driver`, installed by .ci/run).

At phone size (390x844) and desktop size: a typed question shows the right answer with its
printed page; a dispute form rules as the equivalent file does. Screenshots of each page go
under the test's temp folder. Every wait is bounded."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra)")
pytest.importorskip("starlette", reason="the web extra is not installed")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WAIT = 30  # seconds: the most any one step may take on a busy machine (a bound, not a timing)


def _browser() -> tuple[str, str] | None:
    chrome = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = shutil.which("chromedriver")
    return (chrome, driver) if chrome and driver else None


NO_BROWSER = "no Chromium and chromedriver here (apt-get install chromium chromium-driver; .ci/run installs them)"
# skipped on a machine without them, but never in CI, which installs them: there it fails
pytestmark = pytest.mark.skipif(_browser() is None and os.environ.get("CI") != "true", reason=NO_BROWSER)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The real server on a free port (``--port 0``: the port it prints), stopped after the tests."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("RULESREF_GAME", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulesref", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=ROOT,
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    url = None
    seen = []
    try:
        while url is None:
            line = lines.get(timeout=WAIT)  # queue.Empty ends the test if the server never says its address
            seen.append(line)
            if "serving the rules page at " in line:
                url = line.rsplit(" ", 1)[-1].strip()
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=WAIT)


SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


@pytest.fixture(params=SIZES.keys())
def browser(request: pytest.FixtureRequest) -> Iterator[tuple[object, str]]:
    found = _browser()
    assert found is not None, NO_BROWSER
    chrome, driver_path = found
    options = webdriver.ChromeOptions()
    options.binary_location = chrome
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    width, height = SIZES[request.param]
    options.add_argument(f"--window-size={width},{height}")
    service = webdriver.ChromeService(executable_path=driver_path)
    driver = webdriver.Chrome(options=options, service=service)
    # a headless window is at least 500 px wide: a phone's screen is set as the device's metrics
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": request.param == "phone"},
    )
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    try:
        yield driver, request.param
    finally:
        driver.quit()


def _open(driver: object, url: str) -> WebDriverWait:
    driver.get(url)  # type: ignore[attr-defined]
    wait = WebDriverWait(driver, WAIT)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    return wait


def _fits_the_screen(driver: object) -> None:
    """Nothing on the page is wider than the screen: no sideways scrolling on a phone."""
    width, content = driver.execute_script(  # type: ignore[attr-defined]
        "return [window.innerWidth, document.documentElement.scrollWidth]"
    )
    assert content <= width, f"the page is {content} px wide on a {width} px screen"


def test_a_typed_question_shows_its_answer_and_page(server: str, browser: tuple[object, str], tmp_path: Path) -> None:
    driver, size = browser
    wait = _open(driver, server)
    box = driver.find_element(By.ID, "q")  # type: ignore[attr-defined]
    assert driver.find_element(By.CSS_SELECTOR, "label[for=q]").text  # type: ignore[attr-defined]
    box.send_keys("can the DA pawn go thru a wall")
    first = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#answers article")))
    assert "Castle walls are never a route" in first.text
    assert "p. 10, 25" in first.text or "pp. 10, 25" in first.text
    driver.save_screenshot(str(tmp_path / f"ask-{size}.png"))  # type: ignore[attr-defined]
    _fits_the_screen(driver)
    # the text is readable at arm's length: 16 px at least
    size_px = driver.execute_script("return parseFloat(getComputedStyle(arguments[0]).fontSize)", first)  # type: ignore[attr-defined]
    assert size_px >= 16
    # tap for the related clauses
    first.find_element(By.CSS_SELECTOR, "button[aria-expanded]").click()
    wait.until(lambda d: "Related rules" in first.text)
    assert (tmp_path / f"ask-{size}.png").stat().st_size > 0


def test_a_dispute_form_rules_as_the_file_does(server: str, browser: tuple[object, str], tmp_path: Path) -> None:
    driver, size = browser
    wait = _open(driver, server)
    driver.find_element(By.CSS_SELECTOR, "nav button[data-tab=dispute]").click()  # type: ignore[attr-defined]
    wait.until(lambda d: d.find_element(By.ID, "dispute-topic").get_attribute("value") == "move")
    # on the board: the House pawn on a1, then the path a1 -> b1 -> c1 -> b1 (a backtrack), with a 4 card
    driver.find_element(By.CSS_SELECTOR, "#grid button[data-space=a1]").click()  # type: ignore[attr-defined]
    driver.find_element(By.CSS_SELECTOR, "input[name=tool][value=path]").click()  # type: ignore[attr-defined]
    for space in ("b1", "c1", "b1"):
        driver.find_element(By.CSS_SELECTOR, f"#grid button[data-space={space}]").click()  # type: ignore[attr-defined]
    yaml_text = driver.find_element(By.ID, "yaml").get_attribute("value")  # type: ignore[attr-defined]
    assert "path: [a1, b1, c1, b1]" in yaml_text
    driver.find_element(By.ID, "check").click()  # type: ignore[attr-defined]
    verdict = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#ruling .verdict")))
    ruling = driver.find_element(By.ID, "ruling").text  # type: ignore[attr-defined]
    driver.execute_script("arguments[0].scrollIntoView()", verdict)  # type: ignore[attr-defined]
    driver.save_screenshot(str(tmp_path / f"dispute-{size}.png"))  # type: ignore[attr-defined]
    _fits_the_screen(driver)

    # the same YAML, as a file, through `rulesref check --json`
    scenario = tmp_path / "dispute.yaml"
    scenario.write_text(yaml_text, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "rulesref", "check", str(scenario), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    entry = json.loads(out.stdout)[0]
    assert verdict.text == entry["verdict"].upper() == "ILLEGAL"
    assert entry["summary"] in ruling
    for step in entry["steps"]:
        assert step["says"] in ruling
    assert "p. " in ruling or "pp. " in ruling

    # a wall: two neighbouring spaces tapped in turn
    driver.find_element(By.CSS_SELECTOR, "input[name=tool][value=wall]").click()  # type: ignore[attr-defined]
    for space in ("b1", "c1"):
        driver.find_element(By.CSS_SELECTOR, f"#grid button[data-space={space}]").click()  # type: ignore[attr-defined]
    assert "walls: [b1-c1]" in driver.find_element(By.ID, "yaml").get_attribute("value")  # type: ignore[attr-defined]
    b1 = driver.find_element(By.CSS_SELECTOR, "#grid button[data-space=b1]")  # type: ignore[attr-defined]
    assert "wall to the right" in b1.get_attribute("aria-label")


def test_a_template_form_rules_as_the_template_file_does(server: str, browser: tuple[object, str]) -> None:
    """A dispute form without a board (the bump): the template of `rulesref new bump`, ruled as it is."""
    from selenium.webdriver.support.ui import Select

    driver, _ = browser
    wait = _open(driver, server)
    driver.find_element(By.CSS_SELECTOR, "nav button[data-tab=dispute]").click()  # type: ignore[attr-defined]
    wait.until(lambda d: d.find_element(By.ID, "dispute-topic").get_attribute("value") == "move")
    Select(driver.find_element(By.ID, "dispute-topic")).select_by_value("bump")  # type: ignore[attr-defined]
    wait.until(lambda d: "bump" in d.find_element(By.ID, "yaml").get_attribute("value").lower())
    driver.find_element(By.ID, "check").click()  # type: ignore[attr-defined]
    verdict = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#ruling .verdict")))
    out = subprocess.run(
        [sys.executable, "-m", "rulesref", "check", str(ROOT / "rulesref" / "templates" / "bump.yaml"), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    entry = json.loads(out.stdout)[0]
    assert verdict.text == entry["verdict"].upper()
    ruling = driver.find_element(By.ID, "ruling").text  # type: ignore[attr-defined]
    for claim in entry["claims"]:
        assert claim["by"] in ruling


def test_dark_mode_labels_and_focus(server: str, browser: tuple[object, str], tmp_path: Path) -> None:
    """The system's dark setting darkens the page; every field has a label; a section's heading
    takes the focus when it opens (so a screen reader says where it is)."""
    driver, size = browser
    driver.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
    )
    _open(driver, server)
    background = driver.execute_script(  # type: ignore[attr-defined]
        "const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);"
        "return (r + g + b) / 3"
    )
    assert background < 64, background
    unlabelled = driver.execute_script(  # type: ignore[attr-defined]
        "return [...document.querySelectorAll('input:not([type=radio]), select, textarea')]"
        ".filter(e => !document.querySelector('label[for=\"' + e.id + '\"]')).map(e => e.id)"
    )
    assert unlabelled == []
    driver.find_element(By.CSS_SELECTOR, "nav button[data-tab=myths]").click()  # type: ignore[attr-defined]
    assert driver.switch_to.active_element.get_attribute("id") == "myths-h"  # type: ignore[attr-defined]
    driver.save_screenshot(str(tmp_path / f"myths-dark-{size}.png"))  # type: ignore[attr-defined]
