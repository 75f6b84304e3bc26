import { describe, expect, it } from "vitest";
import { formatAccountsFile, parseAccountsFile, type AccountLine } from "./accounts-file";

const ACCOUNTS: AccountLine[] = [
  { username: "admin", role: "admin", password: "a".repeat(24) },
  { username: "annotator1", role: "annotator", password: "b".repeat(24) },
  { username: "viewer", role: "viewer", password: "c".repeat(24) },
];

describe("the demo's accounts file", () => {
  it("writes one aligned line per account under a header, and reads them back", () => {
    const text = formatAccountsFile(ACCOUNTS);
    expect(text.split("\n")).toEqual([
      expect.stringMatching(/^# Accounts the demo created/),
      `username: admin       role: admin      password: ${"a".repeat(24)}`,
      `username: annotator1  role: annotator  password: ${"b".repeat(24)}`,
      `username: viewer      role: viewer     password: ${"c".repeat(24)}`,
      "",
    ]);
    expect(parseAccountsFile(text)).toEqual(ACCOUNTS);
  });

  it("reads the admin of a file written on two lines, before the demo made other accounts", () => {
    expect(parseAccountsFile("username: admin\npassword: Secret-0123456789abcdef\n")).toEqual([
      { username: "admin", role: "admin", password: "Secret-0123456789abcdef" },
    ]);
  });

  it("keeps the last line of a username written twice and skips lines it does not know", () => {
    const text = [
      "# a comment",
      `username: annotator1  role: annotator  password: ${"x".repeat(24)}`,
      "username: ghost  role: superuser  password: nope",
      "something else",
      `username: annotator1  role: annotator  password: ${"y".repeat(24)}`,
    ].join("\n");
    expect(parseAccountsFile(text)).toEqual([{ username: "annotator1", role: "annotator", password: "y".repeat(24) }]);
  });
});
