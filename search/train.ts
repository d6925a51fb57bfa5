/** Training the built-in model, in a process of its own when the sample would stall the server. */
import { deserializeLsa, LsaCorpus, type LsaModel, type LsaOptions, serializeLsa } from "./lsa.ts";
import { type TrainerCommand, trainerCommand } from "./trainer.ts";

/**
 * Samples under both limits train in place: tens of milliseconds, less than a process's start.
 * Text counts as much as documents: a 301-chapter book (12 MB) trained in place held the serving
 * thread for 1.2 s (docs/decisions/search.md, "Training and re-chunking").
 */
export const IN_PLACE = { docs: 500, chars: 256 * 1024 };

/**
 * A trained model and its serialized bytes, as they are stored: the trainer's own output, whose
 * arrays the model views, so a book's 8 MB model is not serialized a second time to be saved.
 */
export interface TrainedModel {
  model: LsaModel;
  bytes: Uint8Array;
}

/** A training sample: its texts a page at a time. */
export interface TrainingSample {
  pages: AsyncIterable<string[]> | Iterable<string[]>;
}

/**
 * Trains an LSA model on a sample, in a trainer process (search/trainer.ts) for large samples.
 * Pages are read one at a time and held only until the sample proves larger than IN_PLACE; from
 * then on each page is written to the trainer, which reduces it to term counts while the pipe
 * holds back the next, so the sample's texts are never all in memory at once.
 */
export async function trainSample(
  sample: TrainingSample,
  options: LsaOptions = {},
  trainer = trainerCommand(),
): Promise<TrainedModel> {
  const held: string[][] = [];
  let docs = 0, chars = 0;
  const pages = (async function* () {
    yield* sample.pages;
  })();
  for (;;) {
    const next = await pages.next();
    if (next.done) {
      const corpus = new LsaCorpus();
      for (const page of held) for (const text of page) corpus.add(text);
      const model = corpus.train(options);
      return { model, bytes: serializeLsa(model) };
    }
    held.push(next.value);
    docs += next.value.length;
    for (const text of next.value) chars += text.length;
    if (chars >= IN_PLACE.chars || docs >= IN_PLACE.docs) break;
  }
  return await trainApart(held, pages, options, trainer);
}

async function trainApart(
  held: string[][],
  pages: AsyncIterable<string[]>,
  options: LsaOptions,
  trainer: TrainerCommand,
): Promise<TrainedModel> {
  const child = new Deno.Command(trainer.command, {
    args: trainer.args,
    env: trainer.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const model = new Response(child.stdout).bytes();
  const complaint = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const send = (message: { texts: string[] } | { train: LsaOptions }) =>
    writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
  try {
    for (const texts of held.splice(0)) await send({ texts });
    for await (const texts of pages) await send({ texts });
    await send({ train: options });
    await writer.close();
  } catch (err) {
    if (!(err instanceof Deno.errors.BrokenPipe)) {
      // Reading the sample failed: stop the trainer and say why.
      child.kill();
      await Promise.allSettled([child.status, model, complaint]);
      throw err;
    } // else the trainer died, and its reason follows
  }
  const [status, bytes, message] = [await child.status, await model, await complaint];
  const failed = (reason: string) => new Error(`LSA training failed: ${message.trim() || reason}`);
  if (!status.success) throw failed(`exit code ${status.code}`);
  try {
    return { model: deserializeLsa(bytes), bytes };
  } catch {
    throw failed("the trainer wrote no model");
  }
}
