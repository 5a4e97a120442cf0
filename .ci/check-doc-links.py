#!/usr/bin/env python3
"""Checks that every relative link in the Markdown documentation resolves.

For README.md, docs/**/*.md and the other tracked Markdown files: a link's target file or folder
must exist in the checkout, and a `#fragment` must name a heading of the target (GitHub's anchor
rules: lower case, punctuation other than `-` and `_` dropped, spaces to `-`, duplicates `-1`,
`-2`, …). External links (a scheme, or `//`) are not fetched. Also checks that every `docs/….md`
path a message or comment in Sources/ or Tests/ names (where a user is sent to read more) exists.
Exits 1 and lists every broken link.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LINK = re.compile(r"(?<!\!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def markdown_files():
    try:
        out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        files = [f for f in out.splitlines() if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
    # Files not yet committed (docs being written) are checked too.
    for base in ["README.md", "docs"]:
        path = os.path.join(ROOT, base)
        if os.path.isfile(path):
            files.append(base)
        for folder, _, names in os.walk(path) if os.path.isdir(path) else []:
            files += [os.path.relpath(os.path.join(folder, n), ROOT) for n in names if n.endswith(".md")]
    return sorted(set(f for f in files if not f.startswith("Tests/Fixtures/realdata/") and os.path.isfile(os.path.join(ROOT, f))))


def strip_code(text):
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(path, cache={}):
    if path not in cache:
        seen, result = {}, set()
        fence = False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))
            slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            result.add(slug if n == 0 else f"{slug}-{n}")
        for m in re.finditer(r"<a\s+(?:name|id)=\"([^\"]+)\"", open(path, encoding="utf-8").read()):
            result.add(m.group(1))
        cache[path] = result
    return cache[path]


def main():
    broken = []
    files = markdown_files()
    for rel in files:
        source = os.path.join(ROOT, rel)
        text = strip_code(open(source, encoding="utf-8").read())
        for target in LINK.findall(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
                continue
            path, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(source), path)) if path else source
            if not resolved.startswith(ROOT) or not os.path.exists(resolved):
                broken.append(f"{rel}: {target}: no such file")
                continue
            if fragment and os.path.isfile(resolved) and resolved.endswith(".md"):
                if fragment not in anchors(resolved):
                    broken.append(f"{rel}: {target}: no heading #{fragment}")
    pointers = 0
    for folder in ["Sources", "Tests"]:
        for base, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(base, name)
                for number, line in enumerate(open(path, encoding="utf-8"), 1):
                    for target in re.findall(r"\bdocs/[\w./-]*\.md", line):
                        pointers += 1
                        if not os.path.isfile(os.path.join(ROOT, target)):
                            broken.append(f"{os.path.relpath(path, ROOT)}:{number}: {target}: no such file")
    for line in broken:
        print(line, file=sys.stderr)
    verdict = f"{len(broken)} broken links" if broken else "every relative link resolves"
    print(f"{len(files)} Markdown files and {pointers} docs/ pointers in Swift sources: {verdict}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
