#!/usr/bin/env python3
"""Every reference to a page of the docs resolves (CTest: docs_links).

    check_links.py [SOURCE_DIR]

Read in README.md, docs/, host/, include/, cl/, scripts/, platforms/ and
tests/ (not tests/data/), comments and text alike:
- a Markdown link [text](path#anchor) in a .md file: the path exists
  (relative to the page) and the anchor is one of the target's headings;
- a path docs/NAME.md (or docs/DIR/NAME.md), optionally with #anchor, and a
  bare NAME.md in capitals (README.md, MODELS.md): the file exists (a bare
  name in docs/ or at the top);
- a section named after a page, `docs/NAME.md, "Title"` or `NAME.md "Title"`
  (the form the code's comments use): the title is one of the target's
  headings or the start of a bold lead-in (`**Title ...`), in any case.
Prints each broken reference with its file and exits 1 when there is one."""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_tree  # noqa: E402

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SKIP = {os.path.join("tests", "data"), os.path.join("tests", "fuzz", "corpus")}

MD_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
DOC_PATH = re.compile(r"(?<![\w/.-])(docs/(?:[\w-]+/)*[\w.-]+\.md)(#[\w-]+)?")
BARE_MD = re.compile(r"(?<![\w/.-])([A-Z][A-Z_]+\.md)(?![\w/])")
SECTION = re.compile(r"(?<![\w.-])((?:docs/(?:[\w-]+/)*)?[\w.-]+\.md)`?,? \"([^\"]{2,80})\"")
# placeholders in examples (docs/workloads/NAME.md), not references
PLACEHOLDER = re.compile(r"\b(?:NAME|WORKLOAD|DIR|FILE)\b")
# a line break inside a comment or a paragraph, with the comment's leader
WRAP = re.compile(r"[ \t]*\n[ \t]*(?:\*(?!\*)|#+|//|;)?[ \t]*")


def read(rel):
    return doc_tree.read(ROOT, rel)


def slug(heading):
    """GitHub's anchor of a heading."""
    h = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", h).replace(" ", "-")


def headings(rel):
    """The headings of a Markdown page, outside its fenced code blocks."""
    found, fenced = [], False
    for line in read(rel).splitlines():
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"^#+ +(.+?) *#*$", line)
        if m:
            found.append(m.group(1))
    return found


def norm(text):
    return re.sub(r"\s+", " ", text).strip().lower()


def has_section(rel, title):
    t = norm(title)
    if any(norm(h).startswith(t) for h in headings(rel)):
        return True
    # a bold lead-in: **Title.** or **Title (...)**, possibly wrapped
    body = norm(read(rel).replace("**", "\n**"))
    return ("**" + t) in body


def resolve_bare(name):
    for cand in (name, os.path.join("docs", name)):
        if os.path.isfile(os.path.join(ROOT, cand)):
            return cand
    return None


def check_md_links(rel, text, errors):
    for m in MD_LINK.finditer(text):
        target = m.group(1)
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(rel), path)) if path else rel
        if not os.path.exists(os.path.join(ROOT, dest)):
            errors.append("%s: link to %s: no such file" % (rel, target))
        elif anchor and dest.endswith(".md") and anchor not in map(slug, headings(dest)):
            errors.append("%s: link to %s: %s has no heading with that anchor"
                          % (rel, target, dest))


def check_paths(rel, text, errors):
    for m in DOC_PATH.finditer(text):
        path, anchor = m.group(1), (m.group(2) or "")[1:]
        if PLACEHOLDER.search(path):
            continue
        if not os.path.isfile(os.path.join(ROOT, path)):
            errors.append("%s: %s: no such page" % (rel, path))
        elif anchor and anchor not in map(slug, headings(path)):
            errors.append("%s: %s#%s: no heading with that anchor" % (rel, path, anchor))
    for m in BARE_MD.finditer(text):
        if not PLACEHOLDER.search(m.group(1)) and not resolve_bare(m.group(1)):
            errors.append("%s: %s: no such page at the top or in docs/" % (rel, m.group(1)))


def check_sections(rel, text, errors):
    for m in SECTION.finditer(WRAP.sub(" ", text)):
        path, title = m.group(1), m.group(2)
        dest = path if "/" in path else resolve_bare(path)
        if dest and os.path.isfile(os.path.join(ROOT, dest)) and not has_section(dest, title):
            errors.append('%s: %s, "%s": no such section in %s' % (rel, path, title, dest))


def main():
    errors = []
    for rel in doc_tree.files(ROOT, SKIP):
        text = read(rel)
        if rel.endswith(".md"):
            check_md_links(rel, text, errors)
        check_paths(rel, text, errors)
        check_sections(rel, text, errors)
    for e in errors:
        print(e)
    print("%d broken references" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
