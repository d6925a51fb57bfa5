/**
 * The SDK's TaskStore over the a2a_tasks table, bound to one publisher and one caller, so that any
 * node serves any task (docs/DESIGN.md §9) and a task id never reaches another caller's task. Every
 * save checks the state machine (states.ts) and writes with compare-and-set on the stored state.
 */
import { type ListTasksRequest, type ListTasksResponse, Task } from "@a2a-js/sdk";
import { A2AError, RequestMalformedError, TaskNotCancelableError } from "@a2a-js/sdk/errors";
import type { TaskStore } from "@a2a-js/sdk/server";
import { findA2aTask, listA2aTasks, saveA2aTask } from "../../../store/a2a_tasks.ts";
import type { Client } from "../../../store/db.ts";
import type { Clock } from "../../platform/clock.ts";
import { BAD_TOKEN, decodePageToken, encodePageToken, PAGE } from "./list_tasks.ts";
import { canTransition, type StateName, stateName, TERMINAL } from "./states.ts";

/** Whose tasks the store serves. */
export interface TaskScope {
  publisherId: string;
  identity: string;
}

/** A TaskStore for one publisher and caller identity. */
export function storeTaskStore(
  deps: { db: Client; clock: Clock },
  scope: TaskScope,
): TaskStore {
  return {
    async load(taskId: string) {
      const row = await findA2aTask(deps.db, scope.publisherId, {
        identity: scope.identity,
        id: taskId,
      });
      return row ? Task.fromJSON(row.document) : undefined;
    },
    async save(task: Task) {
      const next = stateName(task.status?.state);
      if (!next) throw new A2AError(`Task ${task.id} has no known state`);
      const current = await findA2aTask(deps.db, scope.publisherId, {
        identity: scope.identity,
        id: task.id,
      });
      const from = current ? current.state as StateName : null;
      // A terminal task is never rewritten; reaching the same end again (a canceled run that
      // reports its cancellation) changes nothing.
      if (from && from === next && TERMINAL.has(from)) return;
      if (from && !canTransition(from, next)) {
        throw next === "canceled"
          ? new TaskNotCancelableError(`Task ${task.id} is ${from} and cannot be canceled`)
          : new A2AError(`Task ${task.id} cannot move from ${from} to ${next}`);
      }
      const wrote = await saveA2aTask(deps.db, scope.publisherId, {
        identity: scope.identity,
        id: task.id,
        contextId: task.contextId,
        state: next,
        document: Task.toJSON(task),
        expectState: from,
        now: deps.clock.now(),
      });
      if (!wrote) {
        // Another request changed (or created) the task between our read and our write.
        throw next === "canceled"
          ? new TaskNotCancelableError(`Task ${task.id} changed state while being canceled`)
          : new A2AError(`Task ${task.id} was changed by another request; retry`);
      }
    },
    async list(params: ListTasksRequest): Promise<ListTasksResponse> {
      const pageSize = params.pageSize ?? PAGE.default;
      const after = params.pageToken ? decodePageToken(params.pageToken) : null;
      if (params.pageToken && !after) {
        throw new RequestMalformedError(`Invalid params: ${BAD_TOKEN}`);
      }
      const since = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : null;
      const { rows, total } = await listA2aTasks(deps.db, scope.publisherId, {
        identity: scope.identity,
        contextId: params.contextId || null,
        state: stateName(params.status),
        updatedSince: since,
        after,
        limit: pageSize + 1,
      });
      const page = rows.slice(0, pageSize);
      const last = page.at(-1);
      return {
        tasks: page.map((row) => {
          const task = Task.fromJSON(row.document);
          // Left out unless asked for (A2A v1.0 ListTasksRequest.include_artifacts).
          if (!params.includeArtifacts) task.artifacts = [];
          return task;
        }),
        nextPageToken: rows.length > pageSize && last
          ? encodePageToken({ updatedAt: last.updatedAt, id: last.id })
          : "",
        pageSize,
        totalSize: total,
      };
    },
  };
}
