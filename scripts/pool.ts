/** Runs `n` tasks over `width` concurrent workers, keeping results in task order. */
export async function pool<T>(
  n: number,
  width: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) {
      const i = next++;
      out[i] = await task(i);
    }
  }));
  return out;
}
