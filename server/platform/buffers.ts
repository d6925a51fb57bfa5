/**
 * Freeing a stream's chunk as soon as it has been read (issue 39: memory bounded by the limit, not
 * by the file). Every chunk a stream hands over (a request body, a child's output, inflated gzip)
 * is an ArrayBuffer outside V8's heap, freed only when a collection finds its wrapper dead, and
 * V8 starts one for outside memory only some 64 MB later: 50 MB of a gzip sitemap inflated lifted
 * the process by 70 MB of such chunks (docs/PERFORMANCE.md, "Issue 39: memory at the peaks").
 * Detaching the buffer (`transfer(0)`) gives its memory back at once.
 */

/**
 * Deno reads a response body, a request body or a child's pipe 64 KB at a time, each read into a
 * fresh buffer, and hands over a view at the buffer's start: a 4.8 KB page costs 64 KB outside
 * the heap, 13 MB a second at 200 pages a second.
 */
export function releaseStreamChunk(chunk: Uint8Array): void {
  if (chunk.byteOffset === 0) detach(chunk.buffer);
}

/**
 * Frees the memory of a chunk the caller has finished with (copied or decoded). Only a chunk that
 * is its whole buffer is freed: a view into a larger buffer may have neighbours still in use.
 * The chunk is empty afterwards.
 */
export function releaseChunk(chunk: Uint8Array): void {
  if (chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength) detach(chunk.buffer);
}

function detach(buffer: ArrayBufferLike): void {
  if (!(buffer instanceof ArrayBuffer) || buffer.resizable || buffer.byteLength === 0) return;
  try {
    buffer.transfer(0);
  } catch {
    // already detached, or not detachable (a WebAssembly memory): the collector frees it
  }
}
