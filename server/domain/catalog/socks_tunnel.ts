/**
 * The one-connection SOCKS5 tunnel that pins a fetch to addresses already checked.
 *
 * Deno's fetch goes through it with `proxy: { transport: "socks5" }` and sends the URL's host name
 * to the tunnel (it never resolves it itself), so there is no second DNS lookup to rebind, while
 * TLS still verifies the URL's host name end to end. The `transport: "tcp"` proxy (docs/DESIGN.md
 * section 10) pins http correctly but, under Deno 2.9.6, sends https requests as plaintext, so it
 * cannot carry https (see fetcher_test.ts).
 */
import { releaseChunk } from "../../platform/buffers.ts";

/** Opens the TCP connection to a checked address. */
export type Dial = (
  address: string,
  opts: { port: number; signal: AbortSignal },
) => Promise<Deno.Conn>;

/** A tunnel for one fetch: hand `proxy` to `Deno.createHttpClient`, then `close()` it. */
export interface Tunnel {
  proxy: Deno.Proxy;
  /** The checked address the upstream connection reached, once it has. */
  connectedTo?: string;
  /** Whether some address was given up on after `connectTimeoutMs`. */
  connectTimedOut: boolean;
  /** Settles true once fetch has connected to the tunnel, false if it closed before that. */
  accepted: Promise<boolean>;
  close(): Promise<void>;
}

async function readExact(conn: Deno.Conn, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  for (let off = 0; off < n;) {
    const got = await conn.read(out.subarray(off));
    if (got === null) throw new Error("tunnel client closed early");
    off += got;
  }
  return out;
}

async function writeAll(conn: Deno.Conn, data: Uint8Array | number[]): Promise<void> {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}

/** Minimal SOCKS5 server side (RFC 1928/1929): username/password, CONNECT; target ignored. */
async function socksHandshake(
  c: Deno.Conn,
  { user, pass }: { user: string; pass: string },
): Promise<boolean> {
  const [version, count] = await readExact(c, 2);
  if (version !== 5 || !(await readExact(c, count)).includes(2)) {
    await writeAll(c, [5, 0xff]);
    return false;
  }
  await writeAll(c, [5, 2]);
  const dec = new TextDecoder();
  const [, ulen] = await readExact(c, 2);
  const gotUser = dec.decode(await readExact(c, ulen));
  const gotPass = dec.decode(await readExact(c, (await readExact(c, 1))[0]));
  const ok = gotUser === user && gotPass === pass;
  await writeAll(c, [1, ok ? 0 : 1]);
  if (!ok) return false;
  const [, cmd, , atyp] = await readExact(c, 4);
  const len = atyp === 1 ? 4 : atyp === 4 ? 16 : atyp === 3 ? (await readExact(c, 1))[0] : -1;
  if (cmd !== 1 || len < 0) {
    await writeAll(c, [5, 7, 0, 1, 0, 0, 0, 0, 0, 0]);
    return false;
  }
  // The requested destination is read and ignored: this tunnel only reaches the checked addresses.
  await readExact(c, len + 2);
  return true;
}

/** A one-shot SOCKS5 tunnel on 127.0.0.1 to the first of `addresses` that accepts. */
export function openTunnel(
  addresses: string[],
  opts: { port: number; connectTimeoutMs: number; dial: Dial },
): Tunnel {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const [user, pass] = [crypto.randomUUID(), crypto.randomUUID()];
  const conns = new Set<Deno.Conn>();
  const accepted = Promise.withResolvers<boolean>();
  const stop = new AbortController();
  const closeAll = () => {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* already closed */ }
    }
    conns.clear();
  };
  const tunnel: Tunnel = {
    proxy: {
      transport: "socks5",
      url: `socks5://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
      basicAuth: { username: user, password: pass },
    },
    connectTimedOut: false,
    accepted: accepted.promise,
    close: async () => {
      stop.abort();
      try {
        listener.close();
      } catch { /* already closed */ }
      closeAll();
      await task;
    },
  };
  const dialFirst = async (): Promise<Deno.Conn | null> => {
    for (const address of addresses) {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), opts.connectTimeoutMs);
      try {
        const conn = await opts.dial(address, {
          port: opts.port,
          signal: AbortSignal.any([ac.signal, stop.signal]),
        });
        tunnel.connectedTo = address;
        return conn;
      } catch {
        if (ac.signal.aborted) tunnel.connectTimedOut = true;
        if (stop.signal.aborted) return null;
      } finally {
        clearTimeout(timer);
      }
    }
    return null;
  };
  const task = (async () => {
    const client = await listener.accept();
    accepted.resolve(true);
    listener.close(); // one connection per tunnel, then nobody else can knock
    conns.add(client);
    if (!(await socksHandshake(client, { user, pass }))) return;
    const upstream = await dialFirst();
    if (!upstream) return await writeAll(client, [5, 5, 0, 1, 0, 0, 0, 0, 0, 0]);
    conns.add(upstream);
    if (stop.signal.aborted) return;
    await writeAll(client, [5, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    const pump = async (from: Deno.Conn, to: Deno.Conn, onEnd: () => Promise<void> | void) => {
      const buf = new Uint8Array(32 * 1024);
      try {
        for (let n = await from.read(buf); n !== null; n = await from.read(buf)) {
          await writeAll(to, buf.subarray(0, n));
        }
        await onEnd();
      } catch {
        closeAll();
      } finally {
        // Two of these per fetch: at hundreds of fetches a second, left to the collector, they
        // were most of a drain's memory (issue 39).
        releaseChunk(buf);
      }
    };
    // Upstream EOF half-closes toward fetch so a close-delimited body arrives whole;
    // fetch hanging up ends everything.
    await Promise.all([
      pump(client, upstream, closeAll),
      pump(upstream, client, () => client.closeWrite()),
    ]);
  })().catch(() => {}).finally(() => {
    accepted.resolve(false);
    closeAll();
  });
  return tunnel;
}
