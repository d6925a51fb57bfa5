/**
 * Streaming on the A2A endpoint (A2A v1.0 §3.1.2 SendStreamingMessage and §3.1.6 SubscribeToTask;
 * v0.3 message/stream and tasks/resubscribe): JSON-RPC responses as Server-Sent Events, an error
 * after the stream has started as one JSON-RPC error event (never a cut connection), and a
 * subscription that follows a task through the store, so it works on any node: the request that
 * runs the task keeps its events in memory, the store is what every node shares.
 */
import type { Artifact, StreamResponse, Task } from "@a2a-js/sdk";
import { stateName, TERMINAL } from "./states.ts";

/** How often a subscription looks at the stored task, and for how long at most (10 minutes). */
export const FOLLOW = { pollMs: 200, maxPolls: 3000 } as const;

/**
 * The stream of a subscription to `task`: the task as stored, then each change seen in the store
 * (new artifacts, then the status) until the task ends or waits for its client.
 */
export async function* followStored(
  load: (taskId: string) => Promise<Task | undefined>,
  task: Task,
  options: { pollMs: number; maxPolls: number } = FOLLOW,
): AsyncGenerator<StreamResponse> {
  yield { payload: { $case: "task", value: task } };
  const seen = new Set(task.artifacts.map((a) => a.artifactId));
  let last = statusKey(task);
  for (let i = 0; i < options.maxPolls && !settled(task); i++) {
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
    const now = await load(task.id);
    if (!now) return;
    for (const artifact of now.artifacts.filter((a) => !seen.has(a.artifactId))) {
      seen.add(artifact.artifactId);
      yield artifactEvent(now, artifact);
    }
    if (statusKey(now) !== last) {
      last = statusKey(now);
      yield {
        payload: {
          $case: "statusUpdate",
          value: { taskId: now.id, contextId: now.contextId, status: now.status, metadata: {} },
        },
      };
    }
    task = now;
  }
}

/** Ended, or interrupted: nothing changes until the client sends a new message. */
function settled(task: Task): boolean {
  const s = stateName(task.status?.state);
  return s === null || TERMINAL.has(s) || s === "input-required" || s === "auth-required";
}

function statusKey(task: Task): string {
  return `${task.status?.state}|${task.status?.timestamp ?? ""}`;
}

function artifactEvent(task: Task, artifact: Artifact): StreamResponse {
  return {
    payload: {
      $case: "artifactUpdate",
      value: {
        taskId: task.id,
        contextId: task.contextId,
        artifact,
        append: false,
        lastChunk: true,
        metadata: {},
      },
    },
  };
}

/**
 * A started stream of JSON-RPC responses (`first` already taken from `events`); an error thrown
 * on the way becomes its last event, a JSON-RPC error with the call's id, and the stream ends.
 */
export async function* withErrorEvent(
  first: IteratorResult<Record<string, unknown>>,
  events: AsyncIterator<Record<string, unknown>>,
  id: string | number | null,
  mapError: (err: unknown) => unknown,
): AsyncGenerator<Record<string, unknown>> {
  try {
    if (first.done) return;
    yield first.value;
    for (let next = await events.next(); !next.done; next = await events.next()) {
      yield next.value;
    }
  } catch (err) {
    yield { jsonrpc: "2.0", id, error: mapError(err) };
  } finally {
    await events.return?.(undefined);
  }
}

/**
 * JSON-RPC responses as an SSE body. When the client goes away, `drain` runs the source to its end
 * unread (a send: the run still finishes and is stored, for GetTask or SubscribeToTask), `stop`
 * ends it (a subscription: its polling stops).
 */
export function sseBody(
  events: AsyncIterator<Record<string, unknown>>,
  onGone: "drain" | "stop",
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const next = await events.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      if (onGone === "stop") return void await events.return?.(undefined);
      try {
        while (!(await events.next()).done) {
          // Nobody reads these any more; the run's own bookkeeping happens as they pass.
        }
      } catch {
        // The run's failure is already in the store (or nowhere to report it).
      }
    },
  });
}
