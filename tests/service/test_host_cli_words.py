"""`pbem host` answers in the CLI's own terms (issue 24, finding 14: `pbem host pause`
said "Send `command: resume` to go on", a mail command); by mail the same commands keep
answering in mail terms."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from click.testing import CliRunner

from pbem.cli import main
from pbem.service import Judge
from pbem.service.commands import host_commands
from pbem.store import Store
from tests.service.helpers import write_config


def _config(tmp_path: Path) -> Path:
    path, config = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=1))
    store = Store(config.database)
    Judge(config, store).ensure_games()
    store.close()
    return path


def test_the_cli_speaks_cli_and_mail_speaks_mail(tmp_path: Path) -> None:
    path = _config(tmp_path)
    runner = CliRunner()
    paused = runner.invoke(main, ["host", "pause", "g1", "-c", str(path), "--reason", "tea"])
    assert paused.exit_code == 0, paused.output
    assert "pbem host resume g1" in paused.output and "command:" not in paused.output, paused.output
    again = runner.invoke(main, ["host", "pause", "g1", "-c", str(path)])
    assert again.exit_code == 1 and "pbem host resume g1" in again.output and "command:" not in again.output
    extend = runner.invoke(main, ["host", "extend", "g1", "-c", str(path)])
    assert extend.exit_code == 1 and "--hours 24" in extend.output and "hours:" not in extend.output, extend.output
    config = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=1))[1]
    judge = Judge(config, Store(config.database))
    try:
        host_commands.run(judge, "g1", "pause")
    except ValueError as exc:
        assert "`command: resume`" in str(exc)
    else:
        raise AssertionError("a paused game was paused again")


def test_pbem_host_answers_in_the_hosts_language(tmp_path: Path) -> None:
    """Issue 28 text28c item 4: `pbem host` prints in the host's language (the game's
    `host_language`), its receipt, the log witness line and a refusal (said by its
    code, with the command's own reason after it); English when none is set."""
    import yaml

    from pbem import i18n
    from pbem.config import load_config

    path, _config_loaded = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=1))
    raw = yaml.safe_load(path.read_text())
    raw["games"][0]["settings"] = {"host_language": "es"}
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    config = load_config(path)
    store = Store(config.database)
    Judge(config, store).ensure_games()
    store.close()
    runner = CliRunner()
    es = i18n.translations("es")
    paused = runner.invoke(main, ["host", "pause", "g1", "-c", str(path), "--reason", "té"])
    assert paused.exit_code == 0, paused.output
    assert es.gettext("Game %(game)s is paused.") % {"game": "g1"} in paused.output, paused.output
    assert "Game g1 is paused." not in paused.output
    # its next step too (try28: "`pbem host resume g1` goes on." stayed English)
    assert "`pbem host resume g1` sigue adelante." in paused.output and "goes on" not in paused.output, paused.output
    assert (es.gettext("Log witness: %(witness)s") % {"witness": ""}).strip() in paused.output
    assert "Log witness:" not in paused.output
    again = runner.invoke(main, ["host", "pause", "g1", "-c", str(path)])
    assert again.exit_code == 1
    assert "la partida g1 ya está en pausa; `pbem host resume g1` sigue adelante" in again.output, again.output
    assert "paused already" not in again.output
    extend = runner.invoke(main, ["host", "extend", "g1", "-c", str(path)])
    assert extend.exit_code == 1 and "--hours 24 (y si quieres --seat east)" in extend.output, extend.output
    status = runner.invoke(main, ["host", "nonsense", "g1", "-c", str(path)])
    assert status.exit_code != 0  # click refuses an unknown command before the judge (English, click's own)


def test_a_refused_host_command_by_mail_names_its_reason_in_the_hosts_language() -> None:
    """The mail answer to a refused host command (issue 28 text28c): in es/ru it gave the
    code's generic text only; now the reason, in the host's language, inside it."""
    from pbem import i18n
    from pbem.problem_texts import localized
    from pbem.problems import Problem
    from pbem.service.commands.registry import Refused, refusal_in

    exc = Refused(lambda tr: tr.gettext("game %(game)s is not paused; nothing to resume") % {"game": "g1"})
    assert str(exc) == "game g1 is not paused; nothing to resume"  # English as before
    ru = i18n.translations("ru")
    p = Problem(message=str(exc), where="command", code="host.refused", params={"reason": refusal_in(exc, ru)})
    said = localized(p, ru).message
    assert "партия g1 не на паузе; продолжать нечего" in said and "not paused" not in said, said
    assert localized(p, i18n.translations("en")).message == str(exc)


def test_pbem_host_end_and_rollback_refusals_in_the_hosts_language(tmp_path: Path) -> None:
    """Issue 28 (lang28): `end` without a result and `rollback` at the first step were
    refused by a plain ValueError: in es/ru the code's generic text, then the English
    reason. Now the reason itself in the host's language, and no English line."""
    import yaml

    from pbem import i18n
    from pbem.config import load_config

    path, _config_loaded = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=1))
    raw = yaml.safe_load(path.read_text())
    runner = CliRunner()
    for language in ("es", "ru"):
        raw["games"][0]["settings"] = {"host_language": language}
        path.write_text(yaml.safe_dump(raw, sort_keys=False))
        config = load_config(path)
        store = Store(config.database)
        Judge(config, store).ensure_games()
        store.close()
        tr = i18n.translations(language)
        end = runner.invoke(main, ["host", "end", "g1", "-c", str(path)])
        said = tr.gettext("end needs the result: `winner: east` (with `reason:`), or `abandon: true`")
        assert end.exit_code == 1 and said in end.output, end.output
        assert "end needs the result" not in end.output, end.output
        back = runner.invoke(main, ["host", "rollback", "g1", "-c", str(path), "--to-step", "3"])
        said = tr.gettext("%(game)s is at its first step (0): there is no earlier step to go back to") % {"game": "g1"}
        assert back.exit_code == 1 and said in back.output, back.output
        assert "there is no earlier step" not in back.output, back.output


def test_pbem_host_observers_answers_and_refuses_in_the_hosts_language(tmp_path: Path) -> None:
    """Issue 28 (lang28): `pbem host observers --add` answered in English (the host's
    language only by mail), and its refusals (not an address, both --add and --remove)
    were plain English ValueErrors; `pbem game observers` printed English too."""
    import yaml

    from pbem import i18n
    from pbem.config import load_config

    path, _config_loaded = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=1))
    raw = yaml.safe_load(path.read_text())
    raw["games"][0]["settings"] = {"host_language": "ru", "observers": "host"}
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    config = load_config(path)
    store = Store(config.database)
    Judge(config, store).ensure_games()
    store.close()
    ru = i18n.translations("ru")
    runner = CliRunner()
    added = runner.invoke(main, ["host", "observers", "g1", "-c", str(path), "--add", "ann@example.org"])
    assert added.exit_code == 0, added.output
    assert "ann@example.org" in added.output and "may observe" not in added.output, added.output
    bad = runner.invoke(main, ["host", "observers", "g1", "-c", str(path), "--add", "nobody"])
    said = ru.gettext("not an address: %(address)s (write e.g. ann@example.org)") % {"address": "'nobody'"}
    assert bad.exit_code == 1 and said in bad.output and "not an address" not in bad.output, bad.output
    both = runner.invoke(main, ["host", "observers", "g1", "-c", str(path), "--add", "a@b.org", "--remove", "c@d.org"])
    said = ru.gettext("write %(add)s or %(remove)s, one address per command") % {"add": "--add", "remove": "--remove"}
    assert both.exit_code == 1 and said in both.output and "one address per command" not in both.output, both.output
    gone = runner.invoke(main, ["game", "observers", "-c", str(path), "g1", "remove", "zed@example.org"])
    said = ru.gettext("%(address)s is not among the observers of %(game)s") % {"address": "zed@example.org",
                                                                               "game": "g1"}
    assert gone.exit_code == 1 and said in gone.output and "not among" not in gone.output, gone.output
    listed = runner.invoke(main, ["game", "observers", "-c", str(path), "g1"])
    assert listed.exit_code == 0 and "ann@example.org" in listed.output and "observing" not in listed.output, \
        listed.output


def test_pbem_host_extend_says_its_hours_in_the_hosts_language(tmp_path: Path) -> None:
    """try28d (issue 28): a Russian host's and seat's extend notices said "на 1 d",
    "на 2 h" (and a resume "3 s"): the units were English in every language."""
    import yaml

    from pbem.config import load_config
    from pbem.service.base.calendar import duration_text

    path, _config_loaded = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=1))
    raw = yaml.safe_load(path.read_text())
    raw["games"][0]["settings"] = {"host_language": "ru"}
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    store = Store(load_config(path).database)
    Judge(load_config(path), store).ensure_games()
    store.close()
    extended = CliRunner().invoke(main, ["host", "extend", "g1", "-c", str(path), "--hours", "26.5"])
    assert extended.exit_code == 0, extended.output
    assert "Продлено на 1 дн. 2 ч 30 мин;" in " ".join(extended.output.split()), extended.output
    assert " 1 d " not in extended.output and " 2 h " not in extended.output, extended.output
    assert duration_text(93784) == "1 d 2 h 03 min 4 s" and duration_text(40) == "40 s"  # English as before
