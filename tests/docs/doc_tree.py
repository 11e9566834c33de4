"""The text files of the source tree that the docs tests read
(check_links.py, check_sources.py)."""
import os

TREES = ["docs", "host", "include", "cl", "platforms", "scripts", "tests"]
TEXT = (".md", ".c", ".h", ".cl", ".sh", ".py", ".ini", ".1", ".txt", ".cmake")


def files(root, skip):
    """README.md, then every text file under TREES, in order; skip: folders
    (relative to root) left out, build folders always."""
    yield "README.md"
    for tree in TREES:
        for base, dirs, names in os.walk(os.path.join(root, tree)):
            rel = os.path.relpath(base, root)
            dirs[:] = sorted(d for d in dirs if os.path.join(rel, d) not in skip
                             and not d.startswith("build"))
            for n in sorted(names):
                if n.endswith(TEXT):
                    yield os.path.join(rel, n)


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        return f.read()
