import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { decodeBase64Upload } from './http.ts';
import { type CheckedUpload, checkUpload } from './policy.ts';
import {
  type AttachmentOwner,
  attachmentPlaceOf,
  listAttachments,
  readAttachment,
  removeAttachment,
  storeAttachment,
} from './store.ts';

// The receipts on one kind of owner as route-facing services `(ctx, member, input)`: the
// owner's id comes from the path (`id`), the file from a checked upload (`attach`, the journal
// entries' multipart route) or a JSON upload in base64 (`attachBase64`). Where the bytes go
// (the database, or the object store when S3_* is set) comes from the server's configuration.

type Owned = { id: string };
type Located = Owned & { attachmentId: string };

export const receiptsOf = (owner: AttachmentOwner) => {
  const locate = (ctx: AppContext, member: MemberContext, input: Located) => ({
    organizationId: member.organizationId,
    ownerId: input.id,
    attachmentId: input.attachmentId,
    ...attachmentPlaceOf(ctx.config),
  });
  const attach = (ctx: AppContext, member: MemberContext, input: Owned & { file: CheckedUpload }) =>
    storeAttachment(ctx.database.db, owner, {
      organizationId: member.organizationId,
      ownerId: input.id,
      actorUserId: member.userId,
      file: input.file,
      now: ctx.now(),
      objects: attachmentPlaceOf(ctx.config).objects,
    });
  return {
    list: async (ctx: AppContext, member: MemberContext, input: Owned) => ({
      attachments: await listAttachments(ctx.database.db, owner, member.organizationId, input.id),
    }),
    attach,
    attachBase64: async (
      ctx: AppContext,
      member: MemberContext,
      input: Owned & { fileName: string; dataBase64: string },
    ) =>
      attach(ctx, member, {
        id: input.id,
        file: await checkUpload({ fileName: input.fileName, data: decodeBase64Upload(input.dataBase64) }),
      }),
    read: (ctx: AppContext, member: MemberContext, input: Located) =>
      readAttachment(ctx.database.db, owner, locate(ctx, member, input)),
    remove: (ctx: AppContext, member: MemberContext, input: Located) =>
      removeAttachment(ctx.database.db, owner, { ...locate(ctx, member, input), actorUserId: member.userId }),
  };
};
