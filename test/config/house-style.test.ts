// STYLE.md habit 9 held true: a file's leading comment block says what it is for in at most five lines.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const DIRECTORIES = ["server", "workflows", "emails", "codegen", "scripts", "bench", "test", "admin/src", "portal/src", "shared"];
const MAX_HEADER_LINES = 5;

/** The length of the comment lines that open a file (after a shebang); a doc comment there is its declaration's. */
function headerLines(text: string): number {
  const lines = text.split("\n");
  let index = lines[0]?.startsWith("#!") ? 1 : 0;
  while (index < lines.length && lines[index].trim() === "") index++;
  let count = 0;
  let inBlock = false;
  for (const line of lines.slice(index)) {
    const trimmed = line.trim();
    if (!inBlock) {
      const comment = trimmed.startsWith("//") || trimmed.startsWith("/*");
      if (!comment || (count > 0 && trimmed.startsWith("/**"))) break;
      inBlock = trimmed.startsWith("/*");
    }
    if (inBlock && trimmed.includes("*/", trimmed.startsWith("/*") ? 2 : 0)) inBlock = false;
    count++;
  }
  return count;
}

function sourceFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", ...DIRECTORIES], { encoding: "utf8" });
  return listed.split("\0").filter((path) => /\.tsx?$/.test(path));
}

describe("house style", () => {
  it("counts the comment lines that open a file", () => {
    expect(headerLines("// one\n// two\nimport x from 'x';\n// later\n")).toBe(2);
    expect(headerLines("#!/usr/bin/env node\n\n/*\n * a\n */\n// b\nconst x = 1;\n")).toBe(4);
    expect(headerLines("// a\n/** b */\nexport const x = 1;\n")).toBe(1);
    expect(headerLines("/* eslint-disable */\n// a\n// b\nconst x = 1;\n")).toBe(3);
    expect(headerLines("export const x = 1; // trailing\n")).toBe(0);
  });

  it("keeps every file header at most five lines", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((path) => ({ path, lines: headerLines(readFileSync(path, "utf8")) }))
      .filter(({ lines }) => lines > MAX_HEADER_LINES)
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
