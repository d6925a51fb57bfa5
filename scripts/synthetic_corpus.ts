/**
 * The synthetic catalog the search benchmarks share: a Zipf vocabulary of pseudo-words with
 * topics, 400-800-word bodies with sections, titles, summaries and tags, generated
 * deterministically from a seed so every benchmark in a run sees the same articles and queries.
 */
/** A seeded uniform generator (mulberry32): the same catalog every run. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = "ka to ri ne mo la su vi de po ga zu fe bi ho ly wa xe ju mi sa te".split(" ");
const VOCAB = 40_000;
const TOPICS = 300;

/** Pseudo-words of 3-4 syllables, so none is an English stop word. */
export function word(i: number): string {
  let n = i + SYLLABLES.length ** 2;
  let out = "";
  while (n > 0) {
    out += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return out;
}

/** O(1) sampling from a Zipf(s) distribution over `n` items via a lookup table. */
export function zipfTable(n: number, s: number, size: number): Int32Array {
  const w = Array.from({ length: n }, (_, r) => 1 / (r + 1) ** s);
  const total = w.reduce((a, b) => a + b, 0);
  const table = new Int32Array(size);
  let at = 0;
  for (let r = 0; r < n && at < size; r++) {
    const count = Math.max(1, Math.round((w[r] / total) * size));
    table.fill(r, at, Math.min(size, at + count));
    at += count;
  }
  table.fill(n - 1, at);
  return table;
}

/** Generates article rows deterministically: background Zipf words mixed with two topics. */
export function catalog(seed: number) {
  const random = rng(seed);
  const words = Array.from({ length: VOCAB }, (_, i) => word(i));
  const background = zipfTable(VOCAB, 1.07, 1 << 20);
  const inTopic = zipfTable(150, 0.9, 1 << 14);
  const topicWords = Array.from(
    { length: TOPICS },
    () => Int32Array.from({ length: 150 }, () => 200 + Math.floor(random() * (VOCAB - 200))),
  );
  const pick = (t1: number, t2: number) => {
    const u = random();
    if (u < 0.55) return words[background[Math.floor(random() * background.length)]];
    const t = u < 0.85 ? t1 : t2;
    return words[topicWords[t][inTopic[Math.floor(random() * inTopic.length)]]];
  };
  const sentence = (t1: number, t2: number, n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(pick(t1, t2));
    out[0] = out[0][0].toUpperCase() + out[0].slice(1);
    return out.join(" ") + ".";
  };
  return {
    article(i: number) {
      const t1 = Math.floor(random() * TOPICS);
      const t2 = Math.floor(random() * TOPICS);
      const target = 400 + Math.floor(random() * 400);
      const parts: string[] = [];
      let count = 0;
      while (count < target) {
        if (parts.length > 0 && random() < 0.2) {
          parts.push(`## ${sentence(t1, t2, 3).slice(0, -1)}`);
        }
        const n = 40 + Math.floor(random() * 80);
        const sentences: string[] = [];
        for (let c = 0; c < n;) {
          const len = 8 + Math.floor(random() * 14);
          sentences.push(sentence(t1, t2, len));
          c += len;
        }
        parts.push(sentences.join(" "));
        count += n;
      }
      const tags = [words[topicWords[t1][0]], words[topicWords[t1][1]], words[topicWords[t2][0]]];
      return {
        id: `a${String(i).padStart(8, "0")}`,
        url: `https://bench.test/${i}`,
        title: sentence(t1, t2, 5 + Math.floor(random() * 5)).slice(0, -1),
        summary: sentence(t1, t2, 25),
        tags,
        body: parts.join("\n\n"),
        publishedAt: Date.UTC(2020, 0, 1) + i * 60_000,
      };
    },
    query() {
      const t = Math.floor(random() * TOPICS);
      const u = random();
      const n = u < 0.2 ? 1 : u < 0.6 ? 2 : u < 0.9 ? 3 : 5;
      const q: string[] = [];
      for (let i = 0; i < n; i++) {
        q.push(
          random() < 0.25
            ? pick(t, t)
            : words[topicWords[t][inTopic[Math.floor(random() * inTopic.length)]]],
        );
      }
      return q.join(" ");
    },
  };
}
