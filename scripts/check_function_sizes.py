#!/usr/bin/env python3
"""Fails when a function under src/ is longer than 100 lines (issue 28 item 7).

A function runs from the first line of its declaration (return type, template line) to its
closing brace; lambdas and local classes inside it count toward it. Functions are found at
namespace scope, as members defined out of class (Class::name) and inside class bodies;
namespace, class, struct, union and enum bodies and braced initialisers (tables, lambdas
assigned to variables) are not functions. Comments, string and character literals and
preprocessor lines are blanked first, so braces inside them do not count.

The functions still over the limit are listed in KNOWN ("file:name" -> the length they had
when this check was added); they may only shrink. Remove a row once its function is split
below the limit. `--list N` prints the N longest functions instead of checking.
"""
import os
import re
import sys

LIMIT = 100
KNOWN: dict[str, int] = {}

CONTAINER = re.compile(r"^(?:template\s*<.*>\s*)?(?:namespace|struct|class|union|extern)\b")
ENUM = re.compile(r"^(?:typedef\s+)?enum\b")
ACCESS = re.compile(r"^\s*(?:public|private|protected)\s*:(?!:)")
NAME = re.compile(r"(operator\s*\(\s*\)|operator\s*[^\s\w(]+|operator\s+[\w:]+|~?[A-Za-z_][\w:~]*)"
                  r"\s*(?:<[^()]*>)?\s*$")


def blank(text):
    """Comments, literals and preprocessor lines as spaces; newlines kept."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # Preprocessor line, with its backslash continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = end
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append('"' + "".join(ch if ch == "\n" else " " for ch in text[i + 1:end - 1]) + '"')
            i = end
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n and text[j] == c else ""))
            i = j + 1 if j < n and text[j] == c else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def top_level(header):
    """The header with everything inside (), [] and <> of templates dropped."""
    out, depth = [], 0
    for ch in header:
        if ch in "([":
            depth += 1
            if depth == 1:
                out.append(ch)
        elif ch in ")]":
            depth = max(0, depth - 1)
            if depth == 0:
                out.append(ch)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def classify(header):
    """'function' NAME, 'container' or 'other' for the text before a '{'."""
    h = ACCESS.sub("", header).strip()
    if not h:
        return "other", None
    if ENUM.match(h):
        return "other", None
    if CONTAINER.match(h) and "(" not in h.split("{")[0].split(":")[0]:
        return "container", None
    flat = top_level(h)
    # Braced initialisers: `T x[] = {`, `auto f = [](...) {`, `T x{`.
    if re.search(r"(?<![=!<>+\-*/%&|^])=(?!=)", flat.replace("operator=", "operator")):
        return "other", None
    if "(" not in flat:
        return "other", None
    # The name before the parameter list: the first top-level '(' that follows a name.
    for m in re.finditer(r"\(", flat):
        before = flat[:m.start()]
        if before.rstrip().endswith(":") and not before.rstrip().endswith("::"):
            break  # a constructor's initialiser list starts here
        name = NAME.search(before.rstrip())
        if name:
            token = re.sub(r"\s+", "", name.group(1))
            if token in ("if", "for", "while", "switch", "catch", "return", "sizeof"):
                return "other", None
            return "function", token
    return "other", None


def functions(text):
    """(name, first line, last line) of each function body in `text` (1-based)."""
    clean = blank(text)
    found = []
    header_start = 0  # offset where the current declaration's text begins

    def scan(pos, container):
        nonlocal header_start
        header_start = pos
        n = len(clean)
        while pos < n:
            c = clean[pos]
            if c == ";":
                header_start = pos + 1
            elif c == "}":
                if container:
                    return pos + 1
                header_start = pos + 1
            elif c == "{":
                header = clean[header_start:pos]
                kind, name = classify(" ".join(header.split()))
                end = match_brace(pos)
                if kind == "container":
                    end = scan(pos + 1, True)
                elif kind == "function":
                    access = ACCESS.match(header)
                    skip = access.end() if access else 0
                    first = header_start + len(header) - len(header[skip:].lstrip())
                    found.append((name, clean.count("\n", 0, first) + 1,
                                  clean.count("\n", 0, end - 1) + 1))
                pos = end
                header_start = end
                continue
            pos += 1
        return pos

    def match_brace(pos):
        depth = 0
        for k in range(pos, len(clean)):
            if clean[k] == "{":
                depth += 1
            elif clean[k] == "}":
                depth -= 1
                if depth == 0:
                    return k + 1
        return len(clean)

    scan(0, False)
    return found


def collect(root):
    rows = []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith((".cpp", ".h", ".hpp", ".inl")):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for fn, first, last in functions(text):
                rows.append((last - first + 1, rel, first, fn))
    return rows


def main():
    args = sys.argv[1:]
    listing = None
    if args[:1] == ["--list"]:
        listing = int(args[1]) if len(args) > 1 else 25
        args = args[2:]
    root = args[0] if args else "src"
    rows = collect(root)
    if listing is not None:
        for length, rel, line, fn in sorted(rows, reverse=True)[:listing]:
            print(f"{length:4} {rel}:{line} {fn}")
        return 0
    failures = []
    for length, rel, line, fn in sorted(rows):
        cap = max(LIMIT, KNOWN.get(f"{rel}:{fn}", LIMIT))
        if length > cap:
            failures.append(f"{rel}:{line}: {fn} is {length} lines (limit {cap})")
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
