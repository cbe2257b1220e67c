import {
  attachmentBase64UploadSchema,
  attachmentListSchema,
  attachmentSchema,
} from '../../../shared/attachments.ts';
import {
  billInputSchema,
  billListQuerySchema,
  billListSchema,
  billSchema,
  billTotalsSchema,
  billUpdateSchema,
  payablesSettingsSchema,
  payablesSettingsUpdateSchema,
  rejectBillSchema,
  voidBillSchema,
} from '../../../shared/payables.ts';
import { errorBody } from '../../http/errors.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { onReplica } from '../../http/read-replica.ts';
import { BASE64_BODY_LIMIT, sendAttachment } from '../attachments/http.ts';
import { receiptsOf } from '../attachments/receipts.ts';
import { approveBill, rejectBill, submitBill } from './approval.ts';
import { voidBill } from './bill-posting.ts';
import { readBill } from './bill-read.ts';
import { createBill, deleteBill, updateBill } from './bills.ts';
import { billTotals, listBills } from './bills-list.ts';
import { getPayablesSettings, updatePayablesSettings } from './settings.ts';

// Bills from draft to void (docs/payables.md): the list and the totals per status, recording,
// editing and deleting unposted bills, submitting, approving and rejecting, voiding, the
// supplier's PDF or photo attached, and the payables settings (approval threshold, prefix).
// Members record and submit; approving, rejecting and voiding need 'approve'.

const receipts = receiptsOf('bill');

export const payablesBillsRoutes = companyRoutePlugin(['payables'], (route) => {
  route.get(
    '/payables/settings',
    {
      summary: 'Payables settings: approval threshold and bill numbering',
      permission: 'read',
      response: payablesSettingsSchema,
    },
    getPayablesSettings,
  );
  route.patch(
    '/payables/settings',
    {
      summary:
        'Change the approval threshold (base currency minor units, null: no approval) or the bill prefix',
      permission: 'manage_settings',
      body: payablesSettingsUpdateSchema,
      response: payablesSettingsSchema,
    },
    updatePayablesSettings,
  );
  route.get(
    '/bills',
    {
      summary:
        'Bills, newest first (soonest due first with dueBy): filter by status, supplier, text; keyset pages',
      permission: 'read',
      query: billListQuerySchema,
      response: billListSchema,
    },
    onReplica(listBills),
  );
  route.get(
    '/bills/totals',
    {
      summary: 'Bill counts and amounts per status, in the base currency',
      permission: 'read',
      response: billTotalsSchema,
    },
    onReplica(billTotals),
  );
  route.post(
    '/bills',
    {
      summary:
        'Record a bill as a draft (numbered at once; 409 duplicate_bill for a supplier reference already on a live bill)',
      permission: 'record',
      body: billInputSchema,
      response: billSchema,
      status: 201,
      otherResponses: { 409: errorBody },
    },
    createBill,
  );
  route.get(
    '/bills/:billId',
    {
      summary: 'A bill with lines, taxes, payments, credits applied, history and attachments',
      permission: 'read',
      response: billSchema,
    },
    readBill,
  );
  route.patch(
    '/bills/:billId',
    {
      summary: 'Edit a draft or a bill awaiting approval (which goes back to draft)',
      permission: 'record',
      body: billUpdateSchema,
      response: billSchema,
      otherResponses: { 409: errorBody },
    },
    updateBill,
  );
  route.delete(
    '/bills/:billId',
    { summary: 'Delete a draft or a bill awaiting approval', permission: 'record', response: null },
    deleteBill,
  );
  route.post(
    '/bills/:billId/submit',
    {
      summary:
        'Submit a draft: it posts and opens, or waits for approval when above the threshold and the submitter cannot approve',
      permission: 'record',
      response: billSchema,
      otherResponses: { 409: errorBody },
    },
    submitBill,
  );
  route.post(
    '/bills/:billId/approve',
    {
      summary: 'Approve a bill awaiting approval: it posts and opens',
      permission: 'approve',
      response: billSchema,
      otherResponses: { 409: errorBody },
    },
    approveBill,
  );
  route.post(
    '/bills/:billId/reject',
    {
      summary: 'Reject a bill awaiting approval: back to draft with the reason',
      permission: 'approve',
      body: rejectBillSchema.optional(),
      response: billSchema,
    },
    (c, member, { billId, ...body }) => rejectBill(c, member, { ...rejectBillSchema.parse(body), billId }),
  );
  route.post(
    '/bills/:billId/void',
    {
      summary: 'Void an open bill with nothing paid or credited (reverses its posting)',
      permission: 'approve',
      body: voidBillSchema.optional(),
      response: billSchema,
      otherResponses: { 409: errorBody },
    },
    (c, member, { billId, ...body }) => voidBill(c, member, { ...voidBillSchema.parse(body), billId }),
  );

  route.get(
    '/bills/:billId/attachments',
    {
      summary: "Files attached to a bill (the supplier's PDF or photo)",
      permission: 'read',
      response: attachmentListSchema,
    },
    (c, member, { billId }) => receipts.list(c, member, { id: billId }),
  );
  route.post(
    '/bills/:billId/attachments',
    {
      summary:
        "Attach the supplier's PDF or photo (base64; PDF, PNG, JPEG, GIF, WebP, HEIC or plain text, at most 10 MB; the type is read from the bytes)",
      permission: 'record',
      body: attachmentBase64UploadSchema,
      response: attachmentSchema,
      status: 201,
      bodyLimit: BASE64_BODY_LIMIT,
    },
    (c, member, { billId, ...file }) => receipts.attachBase64(c, member, { id: billId, ...file }),
  );
  route.get(
    '/bills/:billId/attachments/:attachmentId',
    {
      summary: 'Download a file attached to a bill',
      permission: 'read',
      produces: ['application/pdf', 'image/*', 'text/plain'],
    },
    async (c, member, { billId, attachmentId }, { reply }) =>
      sendAttachment(reply, await receipts.read(c, member, { id: billId, attachmentId })),
  );
  route.delete(
    '/bills/:billId/attachments/:attachmentId',
    { summary: 'Remove a file attached to a bill', permission: 'record', response: null },
    (c, member, { billId, attachmentId }) => receipts.remove(c, member, { id: billId, attachmentId }),
  );
});
