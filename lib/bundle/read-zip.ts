/**
 * Reading a .zip with yauzl against a byte budget. A zip states every member's size in its
 * central directory, so a member (or a run of members) declaring more than the limits allow is
 * refused before it is inflated; yauzl stops a member that inflates past its declared size, and
 * each inflated chunk is counted against the archive's budget as it arrives.
 */
import yauzl from "yauzl";
import { InflateBudget, type ReadStats } from "./budget";
import { BundleError } from "./errors";
import { MemberCollector } from "./members";
import type { BundleFiles, ReadLimits } from "./read";

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export function readZipBuffer(
  data: Buffer,
  label: string,
  limits: ReadLimits,
  stats?: ReadStats,
): Promise<BundleFiles> {
  return new Promise((resolve, reject) => {
    const budget = new InflateBudget(label, limits, data.length, stats);
    const collector = new MemberCollector(label, limits, budget);
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      reject(
        error instanceof BundleError
          ? error
          : new BundleError(
              { bundle: label },
              `unreadable zip archive: ${error instanceof Error ? error.message : String(error)}`,
            ),
      );
    };
    yauzl.fromBuffer(
      data,
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true },
      (openError, zip) => {
        if (openError || !zip) return fail(openError);
        zip.on("error", fail);
        zip.on("end", () => {
          try {
            if (!failed) resolve(collector.finish());
          } catch (error) {
            fail(error);
          }
        });
        zip.on("entry", (entry: yauzl.Entry) => {
          try {
            const name = entry.fileName;
            collector.checkName(name);
            if (name.endsWith("/")) return zip.readEntry();
            collector.checkSize(name, entry.uncompressedSize);
            zip.openReadStream(entry, (streamError, stream) => {
              if (streamError || !stream) return fail(streamError);
              const chunks: Buffer[] = [];
              stream.on("data", (chunk: Buffer) => {
                try {
                  budget.add(chunk.length);
                  chunks.push(chunk);
                } catch (error) {
                  stream.destroy();
                  fail(error);
                }
              });
              stream.on("error", fail);
              stream.on("end", () => {
                if (failed) return;
                try {
                  const content = Buffer.concat(chunks);
                  const isLink = ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
                  if (isLink) collector.addLink(name, content.toString("utf8"), false);
                  else collector.add(name, content);
                  zip.readEntry();
                } catch (error) {
                  fail(error);
                }
              });
            });
          } catch (error) {
            fail(error);
          }
        });
        zip.readEntry();
      },
    );
  });
}
