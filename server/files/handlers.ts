// HTTP handlers of the file operations (the bytes go through server/files/storage.ts).
import { orgCaller, type Handlers } from "../kit/context.js";
import { completeUpload, createFile, deleteFile, listFiles, updateFile } from "./service.js";

type FileOps = "files:create" | "files:list" | "files:update" | "files:uploaded" | "files:delete";

export const fileHandlers: Handlers<FileOps> = {
  "files:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createFile(ctx.db, orgCaller(ctx), body),
  }),
  "files:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listFiles(ctx.db, orgCaller(ctx), query),
  }),
  "files:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateFile(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "files:uploaded": async ({ params, body }, ctx) => ({
    status: 200,
    body: await completeUpload(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "files:delete": async ({ params }, ctx) => {
    await deleteFile(ctx.db, orgCaller(ctx), params.id);
    return { status: 204, body: null };
  },
};
