/**
 * Runs PDF text extraction in a Worker with a wall-clock limit and a page cap (docs/DESIGN.md section
 * 10): a hostile PDF (a page-count bomb, a Flate bomb, a parser trap) gets a clear 422 and the
 * worker is terminated; the main event loop never runs pdf.js.
 */
import { AppError } from "../errors.ts";
import type { PdfRequest, PdfResponse } from "./pdf_worker.ts";

/** Limits of one PDF extraction. */
export interface PdfLimits {
  timeoutMs?: number;
  maxPages?: number;
  maxInflated?: number;
}

/** The text of each page and the top-level outline of a PDF; throws 422 when it cannot be read. */
export async function pdfText(
  bytes: Uint8Array,
  limits: PdfLimits = {},
): Promise<{ pages: string[]; outline: { title: string; page: number }[] }> {
  const timeoutMs = limits.timeoutMs ?? 30_000;
  const worker = new Worker(new URL("./pdf_worker.ts", import.meta.url), { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const reply = await new Promise<PdfResponse>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, error: `reading it took longer than ${timeoutMs / 1000} s` }),
        timeoutMs,
      );
      worker.onmessage = (e: MessageEvent<PdfResponse>) => resolve(e.data);
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        resolve({ ok: false, error: "the PDF reader stopped on an error" });
      };
      const req: PdfRequest = {
        bytes,
        maxPages: limits.maxPages ?? 2000,
        maxInflated: limits.maxInflated ?? 256 * 1024 * 1024,
      };
      worker.postMessage(req);
    });
    if (!reply.ok) {
      throw new AppError(
        422,
        "unprocessable_pdf",
        `file: the PDF cannot be processed: ${reply.error}`,
      );
    }
    return { pages: reply.pages, outline: reply.outline };
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}
