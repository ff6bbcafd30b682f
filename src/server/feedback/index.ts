import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';

declare module '../db/schema' {
  interface Database {
    feedback: {
      id: import('kysely').Generated<number>;
      user_id: number;
      message: string;
      page: string;
      created_at: import('kysely').ColumnType<Date, Date | undefined, never>;
    };
  }
}

const feedbackBody = {
  type: 'object',
  additionalProperties: false,
  required: ['message'],
  properties: {
    message: { type: 'string', minLength: 1, maxLength: 2000, errorMessage: 'Please write your feedback (up to 2,000 characters).' },
    page: { type: 'string', maxLength: 300 },
  },
} as const;

export const THANKS = 'Thank you for your feedback!';

/** The Beta feedback tab: what users tell us, kept with their id and the page they were on. */
export const feedbackModule = defineServerPlugin({
  id: 'feedback',
  migrations: [
    {
      id: 'feedback/0001_feedback',
      async up(db) {
        await sql`create table feedback (
          id serial primary key,
          user_id integer not null references users(id) on delete cascade,
          message text not null,
          page text not null default '',
          created_at timestamptz not null default now()
        )`.execute(db);
      },
    },
  ],
  needs: { db: T.Db },
  routes(app: FastifyInstance, { db }) {
    app.post<{ Body: { message: string; page?: string } }>(
      '/api/platform/feedback',
      { schema: { body: feedbackBody }, auth: 'user', config: { rateLimit: { max: 10, timeWindow: '1 minute' } } },
      async (request, reply) => {
        const message = request.body.message.trim();
        if (!message) return reply.code(400).send({ status: 'error', message: feedbackBody.properties.message.errorMessage });
        await db
          .insertInto('feedback')
          .values({ user_id: request.user!.id, message, page: request.body.page ?? '' })
          .execute();
        return reply.code(201).send({ status: 'success', message: THANKS });
      },
    );
  },
});
