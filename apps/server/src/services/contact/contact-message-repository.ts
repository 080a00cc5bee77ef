import { randomUUID } from 'node:crypto';
import type { AdminContactMessage, AdminMessageQuery, ContactMessageStatus } from '@parla/contract';
import type { Db } from '../../db/database.js';
import { pageOf } from '../../db/paging.js';
import type { ContactMessagesTable } from '../../db/schema.js';

function toMessage(row: ContactMessagesTable): AdminContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    status: row.status as ContactMessageStatus,
    created_date: row.created_at,
    updated_date: row.updated_at,
  };
}

/** The contact form's messages: stored as well as mailed, answered from the console. */
export function createContactMessageRepository(db: Db) {
  return {
    async create(input: { name: string; email: string; subject: string; message: string }) {
      const now = new Date().toISOString();
      await db
        .insertInto('contact_messages')
        .values({ id: randomUUID(), ...input, status: 'new', created_at: now, updated_at: now })
        .execute();
    },

    find: async (id: string) => {
      const row = await db
        .selectFrom('contact_messages')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toMessage(row);
    },

    /** A page of messages, newest first, of one status or all. */
    async list({ status, page, per_page }: AdminMessageQuery) {
      const base = db
        .selectFrom('contact_messages')
        .$if(status !== undefined, (query) => query.where('status', '=', status as string));
      const { rows, ...paging } = await pageOf(
        base,
        (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
        { page, per_page },
      );
      return { items: rows.map(toMessage), ...paging };
    },

    setStatus: async (id: string, status: ContactMessageStatus) => {
      const row = await db
        .updateTable('contact_messages')
        .set({ status, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && toMessage(row);
    },
  };
}
