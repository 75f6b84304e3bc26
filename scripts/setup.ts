/**
 * npm run setup: checks the system packages the project needs (lib/setup/system-packages.ts) and installs the
 * missing ones with apt-get when it runs as root or with passwordless sudo, saying what and why.
 * Otherwise, or with --check, it stops with one message naming the exact command to run.
 * The demo runs this first (--for demo); `npm test` runs it before any test (--for test).
 */
import { spawn, spawnSync } from "node:child_process";
import { choiceOption, cliCommand, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import {
  describeMissing,
  installCommand,
  missingPackages,
  type SetupPurpose,
  type SystemPackage,
} from "@/lib/setup/system-packages";

export const cli = () =>
  cliCommand(
    "npm run setup --",
    "Checks the system packages the project needs and installs the missing ones with apt-get (as root or with passwordless sudo).",
  )
    .addOption(
      choiceOption("--for <purpose>", "what the packages are for (test adds Chromium)", ["demo", "test"]).default(
        "test",
      ),
    )
    .option("--check", "only check: name the command that installs what is missing");

/** apt-get exits 100 while another process holds the dpkg lock (unattended upgrades): retry. */
const APT_ATTEMPTS = 6;
const APT_RETRY_MS = 10_000;

type Privilege = "root" | "sudo" | "none";

function privilegeOf(env: NodeJS.ProcessEnv): Privilege {
  if (process.getuid?.() === 0) return "root";
  const sudo = spawnSync("sudo", ["-n", "true"], { env, stdio: "ignore", timeout: 10_000 });
  return sudo.status === 0 ? "sudo" : "none";
}

function runInherited(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => io.stderr.write(chunk));
    child.stderr.on("data", (chunk: Buffer) => io.stderr.write(chunk));
    child.on("error", () => resolve(127));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

async function aptInstall(packages: SystemPackage[], privilege: Privilege, io: CliIo): Promise<void> {
  const env = { ...io.env, DEBIAN_FRONTEND: "noninteractive" };
  const sudo = privilege === "sudo" ? ["sudo", "-n", "--preserve-env=DEBIAN_FRONTEND"] : [];
  const names = packages.map((p) => p.apt);
  for (let attempt = 1; attempt <= APT_ATTEMPTS; attempt++) {
    const updated = await runInherited([...sudo, "apt-get", "update", "-qq"], env, io);
    const installed =
      updated === 0
        ? await runInherited([...sudo, "apt-get", "install", "-y", "-qq", "--no-install-recommends", ...names], env, io)
        : updated;
    if (installed === 0) return;
    if (attempt < APT_ATTEMPTS) {
      io.stderr.write(`apt-get failed (exit ${installed}, attempt ${attempt} of ${APT_ATTEMPTS}); retrying in 10 s\n`);
      await new Promise((resolve) => setTimeout(resolve, APT_RETRY_MS));
    }
  }
  throw new AppError(
    "UNAVAILABLE",
    `apt-get could not install ${names.join(" ")}; run it yourself: ${installCommand(packages, privilege === "root")}`,
  );
}

/**
 * Makes sure the packages for `purpose` are present: installs them when allowed, else one error
 * naming the command. Returns the packages it installed.
 */
export async function ensureSystemPackages(
  purpose: SetupPurpose,
  io: CliIo,
  options: { checkOnly?: boolean } = {},
): Promise<SystemPackage[]> {
  const missing = await missingPackages(purpose, io.env);
  if (missing.length === 0) return [];
  const privilege = options.checkOnly ? "none" : privilegeOf(io.env);
  const hasApt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
  if (privilege === "none" || !hasApt) {
    const how = hasApt
      ? `run: ${installCommand(missing, false)}`
      : `install them with your system's package manager (Debian/Ubuntu: ${installCommand(missing, false)})`;
    throw new AppError("UNAVAILABLE", `missing system packages:\n${describeMissing(missing)}\n${how}`);
  }
  io.stderr.write(
    `installing system packages with apt-get (${privilege === "root" ? "as root" : "with sudo"}):\n${describeMissing(missing)}\n`,
  );
  await aptInstall(missing, privilege, io);
  const still = await missingPackages(purpose, io.env);
  if (still.length > 0)
    throw new AppError(
      "UNAVAILABLE",
      `installed, but still not found:\n${describeMissing(still)}\n(check PATH, or CHROMIUM_PATH for the browser)`,
    );
  return missing;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const installed = await ensureSystemPackages(args.for, io, { checkOnly: args.check });
  io.stderr.write(
    installed.length > 0
      ? `system packages ready (installed ${installed.map((p) => p.apt).join(", ")})\n`
      : `system packages for ${args.for}: all present\n`,
  );
  return 0;
}

if (isEntryPoint(import.meta.url)) await runMain(main);
