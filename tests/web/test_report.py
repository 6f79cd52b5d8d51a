"""The phase report in the browser: its long lines wrap inside the panel, on a wide screen
and on a phone, rather than being cut at its right edge."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import seated_game
from tests.web.conftest import LiveServer, open_player

SIZES = {"wide": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def test_the_phase_report_wraps_inside_its_panel(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = seated_game(server.client, "classic", prefix="rp_", seed=3)
    france = game.players["France"]
    france.ok("post", f"{game.path}/orders", {"orders": ["A par - bur", "A mar S A par - bur"]})
    game.master.ok("post", f"{game.path}/adjudicate", {})
    reader = open_player(browser, server, "rp_france", screenshots)
    reader.page.goto(f"{server.url}/games/{game.id}/phases/1")
    report = reader.page.locator("pre.report")
    report.wait_for()
    assert "A Mar S A Par - Bur" in report.inner_text()
    for name, size in SIZES.items():
        reader.page.set_viewport_size(size)
        report.scroll_into_view_if_needed()
        reader.screenshot(f"the report, {name}")
        widths = report.evaluate(
            "r => [r.scrollWidth, r.clientWidth, r.getBoundingClientRect().right]"
        )
        scrolled, shown, right = widths
        assert scrolled <= shown, f"{name}: the report is {scrolled} px wide in {shown}"
        assert right <= size["width"], f"{name}: the report ends at {right} px"
