#!/usr/bin/env python3
"""Every source the code and the docs cite can be found (CTest: docs_sources).

    check_sources.py [SOURCE_DIR]

docs/SOURCES.md lists the sources, one entry each: a line `- **[Key]** — ...`.
Read in README.md, docs/, host/, include/, cl/, platforms/, scripts/ and tests/
(not tests/data/, the fuzz corpus or this folder), the test fails when
- a key is cited ([Key] or [Key, locator]) that SOURCES.md does not list;
- an entry of SOURCES.md is cited nowhere else;
- a file names a source by its kind ("the talk", "the whitepaper", "the
  article", "the lecture", "the C1060 report") without citing a key of that
  kind in the same file (the first mention cites the key; later ones may say
  "the talk");
- a file points at the source studies by a path outside the tree (seeds/...)
  or at an issue number of a tracker that is not in the tree (issue 24).
A key starts with a capital and holds a lower-case letter or ends in two
digits ([Wagner15], [DotArticle], [CSEE217]), so that an array size in capitals
([NKERNELS]) is not read as one. Prints each finding and exits 1 on any."""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_tree  # noqa: E402

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SOURCES = os.path.join("docs", "SOURCES.md")
SKIP = {os.path.join("tests", d) for d in ("data", "docs", os.path.join("fuzz", "corpus"))}

ENTRY = re.compile(r"^- \*\*\[([^\]]+)\]\*\*", re.M)
CITE = re.compile(r"(?<![\\\w])\[([A-Z][A-Za-z0-9]*(?:[a-z][A-Za-z0-9]*|[0-9]{2}))"
                  r"(?:, [^\]\n]+)?\](?!\()")
# the kind of a source, as the text names it -> the keys of that kind
KINDS = [
    (re.compile(r"\bthe (?:HISQ |GTC 2015 )?talk\b", re.I), {"Wagner15"}),
    (re.compile(r"\bthe (?:transpose )?whitepaper\b", re.I), {"Ruetsch09"}),
    (re.compile(r"\bthe (?:dot[- ]product )?article\b", re.I), {"DotArticle"}),
    (re.compile(r"\bthe (?:transpose |DRAM |DRAM-bandwidth )?lectures?\b", re.I),
     {"Udacity12", "CSEE217"}),
    (re.compile(r"\bC1060 report\b", re.I), {"C1060Report"}),
]
UNREACHABLE = [
    (re.compile(r"(?<![\w.$/-])seeds/"), "a path to the source studies outside the tree"),
    (re.compile(r"\b[Ii]ssues? #?[0-9]+"), "an issue number of a tracker not in the tree"),
]


def read(rel):
    return doc_tree.read(ROOT, rel)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check_file(rel, text, keys, cited, errors):
    here = {m.group(1) for m in CITE.finditer(text)}
    for m in CITE.finditer(text):
        if m.group(1) not in keys:
            errors.append("%s:%d: [%s] is not in %s" % (rel, line_of(text, m.start()),
                                                          m.group(1), SOURCES))
    cited.update(here)
    for pattern, kind_keys in KINDS:
        m = pattern.search(text)
        if m and not here & kind_keys:
            errors.append("%s:%d: '%s' without citing %s in the file"
                          % (rel, line_of(text, m.start()), m.group(0),
                             " or ".join("[%s]" % k for k in sorted(kind_keys))))
    for pattern, what in UNREACHABLE:
        for m in pattern.finditer(text):
            errors.append("%s:%d: '%s': %s (cite a key of %s)"
                          % (rel, line_of(text, m.start()), m.group(0), what, SOURCES))


def main():
    if not os.path.isfile(os.path.join(ROOT, SOURCES)):
        print("%s: missing" % SOURCES)
        return 1
    keys = ENTRY.findall(read(SOURCES))
    errors, cited = [], set()
    dup = {k for k in keys if keys.count(k) > 1}
    errors += ["%s: [%s] listed twice" % (SOURCES, k) for k in sorted(dup)]
    for rel in doc_tree.files(ROOT, SKIP):
        if rel != SOURCES:
            check_file(rel, read(rel), set(keys), cited, errors)
    errors += ["%s: [%s] is cited nowhere" % (SOURCES, k) for k in keys if k not in cited]
    for e in errors:
        print(e)
    print("%d sources, %d findings" % (len(keys), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
