/**
 * The agent behind a publisher's A2A server: runs one skill through the same read functions as
 * REST (readArticle decides and records; searchArticles decides per article) and publishes the
 * task's life as SDK events: task (submitted) → working → artifacts → final state. The same run
 * answers a send and a stream; only the transport differs. A cancel is written to the store by
 * whichever request (and node) receives it; the run looks there before the skill and before it
 * publishes results, and stops with the canceled status it finds.
 */
import { AppError } from "../../platform/errors.ts";
import { type Artifact, type Message, type Part, Role, type Task, TaskState } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus } from "@a2a-js/sdk/server";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps } from "../../deps.ts";
import { readArticle } from "../../domain/reads/read_article.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { searchArticles } from "../../domain/reads/search.ts";
import { articleOutcome, searchOutcome, type SkillOutcome } from "./outcomes.ts";
import type { SkillCall } from "./skills.ts";
import { stateEnum } from "./states.ts";

/** What one request's executor works with. */
export interface SkillRun {
  publisher: Publisher;
  caller: Caller;
  call: SkillCall;
  /** The client's messageId: the idempotency key of any charge, so a resend is not billed twice. */
  messageId: string;
  /** The request's Idempotency-Key header, which names the read instead of the messageId. */
  idempotencyKey: string | null;
  /** The stored task if it has been canceled meanwhile, else null. */
  canceled: (taskId: string) => Promise<Task | null>;
}

/** An AgentExecutor for one request (a fresh one per call; nothing is kept in memory). */
export function skillExecutor(deps: AppDeps, run: SkillRun): AgentExecutor {
  const stamp = () => deps.clock.now().toISOString();
  return {
    async execute(ctx, bus) {
      const { taskId, contextId } = ctx;
      const status = (state: TaskState, message?: Message) =>
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, message, timestamp: stamp() },
          metadata: {},
        });
      const task: Task = ctx.task ?? {
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: stamp() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: {},
      };
      const stopped = async () => {
        const canceled = await run.canceled(taskId);
        if (canceled?.status) {
          bus.publish(AgentEvent.statusUpdate({
            taskId,
            contextId,
            status: canceled.status,
            metadata: {},
          }));
        }
        return canceled !== null;
      };
      bus.publish(AgentEvent.task(task));
      bus.publish(status(TaskState.TASK_STATE_WORKING));
      if (await stopped()) return;
      const outcome = await runSkill(deps, run);
      if (await stopped()) return;
      for (const a of outcome.artifacts) {
        bus.publish(AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: artifact(a),
          append: false,
          lastChunk: true,
          metadata: {},
        }));
      }
      bus.publish(status(stateEnum(outcome.state), agentMessage(taskId, contextId, outcome)));
    },
    cancelTask(taskId: string, bus: ExecutionEventBus) {
      // Skills finish inside the request, so there is never a running execution to stop; an
      // interrupted task is canceled by the handler straight from the store.
      bus.publish(AgentEvent.statusUpdate({
        taskId,
        contextId: "",
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: stamp() },
        metadata: {},
      }));
      return Promise.resolve();
    },
  };
}

async function runSkill(deps: AppDeps, run: SkillRun): Promise<SkillOutcome> {
  const reads = {
    db: deps.store.db,
    clock: deps.clock,
    search: deps.search,
    intents: deps.callLog,
    receipts: deps.receipts,
  };
  const { publisher, caller, call } = run;
  if (call.skill === "search_articles") {
    return searchOutcome(
      publisher,
      await searchArticles(reads, { publisher, query: call.query, limit: call.limit, caller }),
    );
  }
  let read;
  try {
    read = await readArticle(reads, {
      publisher,
      idOrUrl: call.idOrUrl,
      caller,
      use: "display",
      lastUserPrompt: call.lastUserPrompt,
      idempotencyKey: run.idempotencyKey ?? `a2a:${run.messageId}`,
    });
  } catch (err) {
    // A refusal of the request itself (an idempotency key reused for another read): the task
    // fails with the sentence and code REST would answer, and nothing was charged.
    if (err instanceof AppError && err.status < 500) {
      return { state: "failed", text: err.message, data: { status: err.code }, artifacts: [] };
    }
    throw err;
  }
  return articleOutcome({ config: deps.config, publisher }, {
    article: read.article,
    decision: read.decision,
    // A resent message is the same read: it names the same charge and receipt (as REST does).
    charge: read.charge,
  });
}

function agentMessage(taskId: string, contextId: string, o: SkillOutcome): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(o.text), dataPart(o.data)],
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

function artifact(a: SkillOutcome["artifacts"][number]): Artifact {
  return {
    artifactId: crypto.randomUUID(),
    name: a.name,
    description: a.description,
    parts: [textPart(a.text), dataPart(a.data)],
    metadata: {},
    extensions: [],
  };
}

function textPart(text: string): Part {
  return {
    content: { $case: "text", value: text },
    mediaType: "text/plain",
    filename: "",
    metadata: undefined,
  };
}

function dataPart(data: Record<string, unknown>): Part {
  return {
    content: { $case: "data", value: data },
    mediaType: "application/json",
    filename: "",
    metadata: undefined,
  };
}
