/**
 * Dispatches one checked JSON-RPC call to the SDK's transport handlers: v1.0 names (SendMessage,
 * SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask) to
 * JsonRpcTransportHandler, v0.3 names (message/send, message/stream, tasks/get, tasks/cancel,
 * tasks/resubscribe) to LegacyJsonRpcTransportHandler, both over one DefaultRequestHandler built
 * for this request with the store-backed TaskStore. Methods the card does not offer (push
 * notifications, extended card) get the A2A error that says so.
 */
import type {
  AgentCard,
  CancelTaskRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from "@a2a-js/sdk";
import {
  A2AError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import {
  type AgentExecutor,
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps } from "../../deps.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { idempotencyKeyOf } from "../../domain/reads/inputs.ts";
import { AppError } from "../../platform/errors.ts";
import { agentCard } from "./card.ts";
import { skillExecutor } from "./executor.ts";
import { CODES, rpcError, type RpcId } from "./jsonrpc.ts";
import { parseListTasks } from "./list_tasks.ts";
import { ParamsError, parseSkillCall } from "./skills.ts";
import { stateName, TERMINAL } from "./states.ts";
import { followStored, withErrorEvent } from "./stream.ts";
import { storeTaskStore } from "./task_store.ts";

const V1 = new Set([
  "SendMessage",
  "SendStreamingMessage",
  "GetTask",
  "CancelTask",
  "ListTasks",
  "SubscribeToTask",
]);
const V03 = new Set([
  "message/send",
  "message/stream",
  "tasks/get",
  "tasks/cancel",
  "tasks/resubscribe",
]);
const SENDS = new Set(["SendMessage", "message/send", "SendStreamingMessage", "message/stream"]);
const NOT_OFFERED: Record<string, [number, string]> = {
  GetExtendedAgentCard: [CODES.extendedCardNotConfigured, "There is no extended agent card"],
  "agent/getAuthenticatedExtendedCard": [
    CODES.extendedCardNotConfigured,
    "There is no extended agent card",
  ],
};
const PUSH =
  /^(tasks\/pushNotificationConfig\/(set|get|list|delete)|(Create|Get|Delete)TaskPushNotificationConfig|ListTaskPushNotificationConfigs)$/;

/** The response to one call, and what the call log should say about it. */
export interface Dispatched {
  response: Record<string, unknown>;
  /** Call-log tool: the skill name for sends, `_method:<method>` for protocol calls. */
  tool: string;
  ok: boolean;
  /** HTTP status when not 200: 401 for a call that needs credentials the caller did not send. */
  status?: 401;
  /** For a streaming method that started: the JSON-RPC responses to send as events. */
  stream?: AsyncIterator<Record<string, unknown>>;
}

/** Runs one JSON-RPC call for `caller` at `publisher`. */
export async function dispatch(
  deps: AppDeps,
  call: {
    id: RpcId;
    method: string;
    params: Record<string, unknown>;
    publisher: Publisher;
    caller: Caller;
    /** True when the caller presented a credential (a buyer key or an access token). */
    authenticated: boolean;
    /** The Idempotency-Key header, as sent: it names a send's read instead of the messageId. */
    idempotencyKey?: string;
  },
): Promise<Dispatched> {
  const { id, method, publisher, caller } = call;
  const protocolTool = `_method:${method.slice(0, 64)}`;
  const fail = (code: number, message: string, tool = protocolTool): Dispatched => ({
    response: rpcError(id, code, message) as unknown as Record<string, unknown>,
    tool,
    ok: false,
  });
  if (!V1.has(method) && !V03.has(method)) {
    const known = NOT_OFFERED[method];
    if (known) return fail(known[0], known[1]);
    if (PUSH.test(method)) {
      return fail(CODES.pushNotSupported, "Push notifications are not offered");
    }
    return fail(CODES.methodNotFound, `Method not found: ${method.slice(0, 64)}`);
  }
  let params = call.params;
  const tasks = storeTaskStore({ db: deps.store.db, clock: deps.clock }, {
    publisherId: publisher.id,
    identity: caller.identity,
  });
  const context = new ServerCallContext({ requestedVersion: V1.has(method) ? "1.0" : "0.3" });
  let executor: AgentExecutor = idleExecutor;
  let tool = protocolTool;
  if (SENDS.has(method)) {
    let skillCall, idempotencyKey;
    try {
      skillCall = parseSkillCall(params);
      idempotencyKey = idempotencyKeyOf(call.idempotencyKey);
    } catch (err) {
      if (err instanceof ParamsError) return fail(err.code, `Invalid params: ${err.message}`);
      if (err instanceof AppError && err.status === 400) {
        return fail(CODES.invalidParams, `Invalid params: ${err.message}`);
      }
      throw err;
    }
    tool = skillCall.skill;
    params = blocking(params);
    const messageId = String((params.message as Record<string, unknown>).messageId);
    executor = skillExecutor(deps, {
      publisher,
      caller,
      call: skillCall,
      messageId,
      idempotencyKey,
      canceled: async (taskId) => {
        const task = await tasks.load(taskId, context);
        return task && stateName(task.status?.state) === "canceled" ? task : null;
      },
    });
  } else if (method === "ListTasks") {
    // Anonymous callers share a meter identity per address: listing by it would show one
    // person's tasks (and prompts) to another behind the same address.
    if (!call.authenticated) {
      const message =
        "Listing tasks needs a credential: send a buyer key (Authorization: Bearer mk_...) or an OAuth access token";
      return {
        response: rpcError(id, CODES.unauthenticated, message, {
          status: "authentication_required",
        }) as unknown as Record<string, unknown>,
        tool: protocolTool,
        ok: false,
        status: 401,
      };
    }
    try {
      params = parseListTasks(params);
    } catch (err) {
      if (err instanceof ParamsError) return fail(err.code, `Invalid params: ${err.message}`);
      throw err;
    }
  }
  const handler = new FolioRequestHandler(agentCard(deps.config, publisher), tasks, executor);
  const transport = V1.has(method)
    ? new JsonRpcTransportHandler(handler)
    : new LegacyJsonRpcTransportHandler(handler);
  const out = await transport.handle(
    { jsonrpc: "2.0", id, method, params },
    context,
  );
  const mapError = (err: unknown) => {
    if (!(err instanceof A2AError)) {
      deps.log.error("a2a stream failed", { method, error: String(err) });
      return { code: CODES.internalError, message: "Internal error" };
    }
    return V1.has(method)
      ? JsonRpcTransportHandler.mapToJSONRPCError(err)
      : LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(err);
  };
  if (Symbol.asyncIterator in out) {
    const events = (out as AsyncGenerator<Record<string, unknown>>)[Symbol.asyncIterator]();
    // A refusal before the first event (bad task, finished task) is a plain JSON-RPC answer.
    let first;
    try {
      first = await events.next();
    } catch (err) {
      return { response: { jsonrpc: "2.0", id, error: mapError(err) }, tool, ok: false };
    }
    return { response: {}, tool, ok: true, stream: withErrorEvent(first, events, id, mapError) };
  }
  const response = { ...(out as Record<string, unknown>), id };
  return { response, tool, ok: !("error" in out && out.error) };
}

/**
 * Folio's skills finish within the request, so every send waits for the final state: the answer
 * to a send is always the finished (or interrupted) task. `returnImmediately` (v1.0) and
 * `blocking: false` (v0.3) are accepted and overridden.
 */
function blocking(params: Record<string, unknown>): Record<string, unknown> {
  const config = typeof params.configuration === "object" && params.configuration !== null
    ? params.configuration as Record<string, unknown>
    : {};
  return { ...params, configuration: { ...config, returnImmediately: false, blocking: true } };
}

/**
 * Cancels follow A2A v1.0 §3.1.5: a task in any terminal state, canceled too, is not cancelable.
 * Subscriptions follow the stored task (stream.ts), since the request running it may be on
 * another node.
 */
class FolioRequestHandler extends DefaultRequestHandler {
  #tasks: TaskStore;
  constructor(card: AgentCard, tasks: TaskStore, executor: AgentExecutor) {
    super(card, tasks, executor, undefined, undefined, undefined, undefined, undefined, {
      keepBusAliveStates: [],
    });
    this.#tasks = tasks;
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = params.id ? await this.#tasks.load(params.id, context) : undefined;
    const state = stateName(task?.status?.state);
    if (task && state && TERMINAL.has(state)) {
      throw new TaskNotCancelableError(`Task ${task.id} is ${state} and cannot be canceled`);
    }
    return super.cancelTask(params, context);
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!params.id?.trim()) throw new RequestMalformedError("Invalid params: id is required");
    const task = await this.#tasks.load(params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    const state = stateName(task.status?.state);
    if (state && TERMINAL.has(state)) {
      throw new UnsupportedOperationError(
        `Task ${task.id} is ${state}: there is nothing to follow (get it with GetTask)`,
      );
    }
    yield* followStored((taskId) => this.#tasks.load(taskId, context), task);
  }
}

/** Tasks/get and tasks/cancel never execute anything. */
const idleExecutor: AgentExecutor = {
  execute: () => Promise.reject(new Error("No skill to execute")),
  cancelTask: () => Promise.resolve(),
};
