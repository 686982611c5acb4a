"""The malformed schedules the C++ reader is tested with (tests/cli/bad/schedules, whose expected
messages are in tests/cli/bad/cases.cmake) fed to slimpack-run: each is refused before any rank
starts, exit 2, with one line naming the file, no traceback; where both readers can name the same
place in the file, they do."""

import os
import re

import pytest

from slimpack_runtime.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, os.pardir, "cli", "bad", "schedules")
FILES = sorted(os.listdir(CORPUS))
# Where the runtime names the same JSON path as the C++ reader (or the path of the action whose
# field the C++ reader names). The others differ for a reason: the C++ reader rebuilds the plan
# and compares (wrong-atoms, wrong-frees, segment-past-end name the field that differs from the
# rebuilt plan, the runtime the first inconsistency it meets); unknown-model names a cost preset
# the runtime has no use for (it refuses the missing model dimensions); the rest are not JSON.
SAME_PLACE = ["missing-rank.json", "missing-recv-f.json", "missing-setup.json",
              "reordered-actions.json", "unknown-action.json", "unknown-version.json",
              "wrong-peer.json", "wrong-type-stages.json", "replica-count.json"]


def _cpp_reasons():
    text = open(os.path.join(HERE, os.pardir, "cli", "bad", "cases.cmake")).read()
    out = {}
    for name, regex in re.findall(r'bad_case\(schedules (\S+) "(.*)"\)', text):
        out[name] = regex.replace("\\\\", "")
    return out


def _path(message):
    m = re.search(r"\$[\w.\[\]]*", message)
    return m.group(0) if m else None


@pytest.mark.parametrize("name", FILES)
def test_every_corpus_file_is_refused_in_one_line(name, capsys):
    path = os.path.join(CORPUS, name)
    code = main([path, "--in-process"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err and f"{name}: " in err, err


@pytest.mark.parametrize("name", SAME_PLACE)
def test_both_readers_name_the_same_place(name, capsys):
    cpp = _path(_cpp_reasons()[name])
    main([os.path.join(CORPUS, name), "--in-process"])
    ours = _path(capsys.readouterr().err)
    assert cpp and ours and (cpp == ours or cpp.startswith(ours + ".")), (cpp, ours)
