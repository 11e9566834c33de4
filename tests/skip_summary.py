#!/usr/bin/env python3
"""What a CTest run skipped, and why: bench.sh test prints it after each build's tests.

    python3 tests/skip_summary.py JUNIT.xml      (ctest --output-junit JUNIT.xml)

A test that could not run here exits 77 (SKIP_RETURN_CODE: CTest counts it as
skipped); one that ran but left some checks out says so. Either way the
reason is a "skip: REASON" line of its output (tests/cli/lib.sh: skip_test,
skip_part). Prints one line per skipped test or part; nothing when none was.
Exit 0 unless the file cannot be read.
"""
import sys
import xml.etree.ElementTree as ET


def reasons(case):
    """The "skip: " lines of a test case's output."""
    out = case.findtext("system-out") or ""
    return [line[len("skip: "):].strip() for line in out.splitlines() if line.startswith("skip: ")]


def main(path):
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except (OSError, ET.ParseError) as e:
        print("skip_summary: %s: %s" % (path, e), file=sys.stderr)
        return 2
    whole, part = [], []
    for c in cases:
        why = reasons(c)
        if c.find("skipped") is not None or c.get("status") == "notrun":
            whole.append((c.get("name"), why or ["(no reason given)"]))
        elif why:
            part.append((c.get("name"), why))
    if whole or part:
        print("skipped: %d test(s) whole, %d in part" % (len(whole), len(part)))
    for kind, items in (("skipped", whole), ("part skipped", part)):
        for name, why in items:
            for w in why:
                print("  %s %s: %s" % (kind, name, w))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
