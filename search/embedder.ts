/** Embedders: the interface, and an OpenAI-compatible HTTP provider (OpenAI, Ollama, vLLM, TEI). */

/** Turns texts into vectors of `dims` numbers; `id` names the model that made them. */
export interface Embedder {
  id: string;
  dims: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** The fetch the caller supplies (Folio's guarded fetcher in production). */
export type EmbedFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<{ status: number; text(): string | Promise<string> }>;

/** An embedder failure, with the provider's status when there was one. */
export class EmbedderError extends Error {
  override name = "EmbedderError";
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/** An embedder posting to `{baseUrl}/v1/embeddings`; vectors are L2-normalised. */
export function createOpenAiEmbedder(options: {
  baseUrl: string;
  apiKey?: string;
  model: string;
  dims?: number;
  fetch: EmbedFetch;
}): Embedder {
  const url = `${options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/embeddings`;
  const embedder: Embedder = {
    id: `openai:${options.model}${options.dims ? `:${options.dims}` : ""}`,
    dims: options.dims ?? 0,
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const body: Record<string, unknown> = { model: options.model, input: texts };
      if (options.dims) body.dimensions = options.dims;
      const res = await options.fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== 200) {
        throw new EmbedderError(
          `Embedding provider answered ${res.status}: ${text.slice(0, 200)}`,
          res.status,
        );
      }
      let data: { index?: number; embedding?: unknown }[];
      try {
        data = JSON.parse(text).data;
      } catch {
        throw new EmbedderError("Embedding provider answered with invalid JSON");
      }
      if (!Array.isArray(data) || data.length !== texts.length) {
        throw new EmbedderError(
          `Embedding provider returned ${data?.length ?? 0} vectors for ${texts.length} texts`,
        );
      }
      const out = new Array<Float32Array>(texts.length);
      data.forEach((d, i) => {
        const v = d.embedding;
        if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number")) {
          throw new EmbedderError("Embedding provider returned a malformed vector");
        }
        if (embedder.dims === 0) embedder.dims = v.length;
        if (v.length !== embedder.dims) {
          throw new EmbedderError(
            `Embedding provider returned ${v.length} dimensions, expected ${embedder.dims}`,
          );
        }
        out[typeof d.index === "number" ? d.index : i] = normalise(Float32Array.from(v));
      });
      return out;
    },
  };
  return embedder;
}

/** Scales a vector to unit length in place (cosine = dot product downstream). */
export function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) { for (let i = 0; i < v.length; i++) v[i] /= n; }
  return v;
}
