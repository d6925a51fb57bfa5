/**
 * The model trainer as a process of its own (docs/decisions/search.md, "Training and re-chunking"). A Worker that
 * trained a book's model lifted the server by 130 MB and, once terminated, left about 90 MB of it
 * behind; a process gives all of its memory back when it exits.
 *
 * Protocol: newline-delimited JSON on stdin, `{"texts": [...]}` a page at a time, then
 * `{"train": options}`; the serialized model on stdout, exit 0. Any failure is one line on stderr
 * and exit 1, and so is a sample that ends without `train` (the server went away).
 */
import { LsaCorpus, type LsaOptions, serializeLsa } from "./lsa.ts";

/** The argument that makes a compiled Folio binary run as the trainer (main.ts). */
export const TRAINER_ARG = "--folio-trainer";

/** How to start a trainer process. */
export interface TrainerCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * The command that starts a trainer: this module under `deno run`, or the binary itself. V8 is
 * told to favour size: a book's model then peaks at 100 MB instead of 160 MB, 0.2 s slower.
 */
export function trainerCommand(): TrainerCommand {
  const env = { DENO_V8_FLAGS: "--optimize-for-size" };
  if (Deno.build.standalone) return { command: Deno.execPath(), args: [TRAINER_ARG], env };
  // Only relative imports: no configuration, lockfile or permissions are needed.
  const module = new URL("./trainer.ts", import.meta.url).href;
  return { command: Deno.execPath(), args: ["run", "--quiet", "--no-config", module], env };
}

type Message = { texts?: string[]; train?: LsaOptions };

/** Trains from `input` and writes the model to `output`; returns the exit code. */
export async function runTrainer(
  input: ReadableStream<Uint8Array> = Deno.stdin.readable,
  output: WritableStream<Uint8Array> = Deno.stdout.writable,
): Promise<number> {
  try {
    const corpus = new LsaCorpus();
    for await (const line of lines(input)) {
      const message: Message = JSON.parse(line);
      if (message.texts) {
        for (const text of message.texts) corpus.add(text);
      } else if (message.train) {
        const writer = output.getWriter();
        await writer.write(serializeLsa(corpus.train(message.train)));
        await writer.close();
        return 0;
      }
    }
    throw new Error("the sample ended before the request to train");
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

/** The lines of a UTF-8 stream, without their newlines; a page of texts is one line. */
async function* lines(input: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let parts: string[] = [];
  for await (const bytes of input) {
    const text = decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let end; (end = text.indexOf("\n", start)) >= 0; start = end + 1) {
      parts.push(text.slice(start, end));
      const line = parts.join("");
      parts = [];
      if (line) yield line;
    }
    if (start < text.length) parts.push(text.slice(start));
  }
  const rest = parts.join("") + decoder.decode();
  if (rest) yield rest;
}

if (import.meta.main) Deno.exit(await runTrainer());
