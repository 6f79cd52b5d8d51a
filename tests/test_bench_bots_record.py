"""The bots' benchmark's record: a long run stopped part-way goes on from its file, with
only the games of the same code and budget."""

from pathlib import Path

from benchmarks.bots import Cost, Mode, Record, Run, record_line, recorded

RUN = Run(code="abc", seconds=0.01, playouts=None)


def _game(seed: int) -> Record:
    return Record(
        "classic",
        Mode.ONE_BOT,
        seed,
        "France",
        shares={"France": 0.5, "Italy": 0.5},
        winners=("France",),
        ending="solo",
        costs=[Cost("Movement", 4.5, 10.25)],
        illegal=["S1901M France: no unit in Paris"],
        seconds=1.5,
    )


def test_a_recorded_game_reads_back_as_it_was_played(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(record_line(RUN, _game(3)) + "\n", encoding="utf-8")
    assert recorded(path, RUN) == {("classic", "ONE_BOT", 3): _game(3)}


def test_games_of_other_code_or_budget_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    lines = [
        record_line(Run("other", 0.01, None), _game(1)),
        record_line(Run("abc", 0.02, None), _game(2)),
        record_line(RUN, _game(3)),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert set(recorded(path, RUN)) == {("classic", "ONE_BOT", 3)}


def test_a_line_cut_short_is_passed_over_and_its_game_played_again(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    whole = record_line(RUN, _game(1))
    path.write_text(whole + "\n" + record_line(RUN, _game(2))[:40] + "\n", encoding="utf-8")
    assert set(recorded(path, RUN)) == {("classic", "ONE_BOT", 1)}


def test_no_file_is_no_games(tmp_path: Path) -> None:
    assert recorded(tmp_path / "none.jsonl", RUN) == {}
