import { expect, test } from "@playwright/test";
import { tarGzDeclaring, tarGzWithTrailingZeros, withDeepArguments } from "@/lib/bundle/hostile-archives.fixture";
import { holdUpload, postArchive, type ImportAnswer } from "@/lib/bundle/import-probe.fixture";
import { generatedBundle } from "@/lib/bundle/test-support";
import { zipBuffer } from "@/lib/bundle/write";
import { E2E_INGEST_TOKEN, E2E_PORT } from "../playwright.config";
import { countRows } from "./db";

const URL = `http://127.0.0.1:${E2E_PORT}`;
const MiB = 1024 * 1024;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a .tar.gz followed by 32 MiB of zeros is imported: reading stops at the archive's end", async () => {
  const before = countRows("runs");
  const body = await tarGzWithTrailingZeros(generatedBundle({ index: 930, seed: 5 }), 32 * MiB);

  const answer = await postArchive(URL, E2E_INGEST_TOKEN, body, "zeros.tgz");

  expect(answer.status).toBe(201);
  expect(countRows("runs")).toBe(before + 1);
});

test("JSON nested 10,000 deep is a 422 naming the member and line, not a 500", async () => {
  const { files, line } = withDeepArguments(generatedBundle({ index: 931, seed: 5 }), 10_000);

  const answer = await postArchive(URL, E2E_INGEST_TOKEN, await zipBuffer(files), "deep.zip");

  expect(answer.status).toBe(422);
  expect(answer.body.error).toMatch(
    new RegExp(`^deep\\.zip: trajectory\\.jsonl line ${line}: JSON nested deeper than 256 levels`),
  );
});

test("a member whose header declares 1 GiB is a 413", async () => {
  const body = await tarGzDeclaring("native/huge.log", 1024 * MiB, 16 * MiB);

  const answer = await postArchive(URL, E2E_INGEST_TOKEN, body, "huge.tgz");

  expect(answer.status).toBe(413);
  expect(answer.body.error).toContain("huge.tgz: native/huge.log: member is 1073741824 bytes, over the limit");
});

test("past two imports at once a third is refused with 503 and Retry-After, and pages keep answering", async ({
  request,
}) => {
  const held = [await holdUpload(URL, E2E_INGEST_TOKEN), await holdUpload(URL, E2E_INGEST_TOKEN)];
  // The server takes a slot when the request reaches the route: ask until both are taken.
  let third: ImportAnswer | null = null;
  for (let attempt = 0; attempt < 50 && third?.status !== 503; attempt++) {
    await pause(100);
    third = await postArchive(URL, E2E_INGEST_TOKEN, Buffer.from("probe"), "third");
  }
  expect(third?.status).toBe(503);
  expect(third?.retryAfter).toBe("5");
  expect(third?.body.error).toBe("2 imports are already running: retry in 5 s");
  expect((await request.get("/login")).status()).toBe(200);
  for (const upload of held) upload.release();

  const body = await zipBuffer(generatedBundle({ index: 932, seed: 5 }));
  let after: ImportAnswer | null = null;
  for (let attempt = 0; attempt < 50 && (after === null || after.status === 503); attempt++) {
    await pause(100);
    after = await postArchive(URL, E2E_INGEST_TOKEN, body, "after.zip");
  }
  expect(after?.status).toBe(201);
});
