import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';

/*
 * One set of migrations for SQLite and PostgreSQL: only portable column types (text, integer)
 * and portable statements. Migrations are code, not files read from disk, so the built server
 * needs nothing beside its own JavaScript. Never edit a released migration: add a new one.
 */
const migrations: Record<string, Migration> = {
  '0001-users': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('USER'))
        .addColumn('email_validated_at', 'text')
        .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text')
        .addColumn('phone', 'text')
        .addColumn('address_country', 'text')
        .addColumn('address_state', 'text')
        .addColumn('address_city', 'text')
        .addColumn('address_line1', 'text')
        .addColumn('address_line2', 'text')
        .addColumn('address_postal_code', 'text')
        .addColumn('tax_type', 'text')
        .addColumn('tax_code', 'text')
        .addColumn('card_brand', 'text')
        .addColumn('card_last4', 'text')
        .addColumn('card_exp_month', 'integer')
        .addColumn('card_exp_year', 'integer')
        .addColumn('card_name', 'text')
        .addColumn('has_payment_method_added', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('plan_type', 'text', (c) => c.notNull().defaultTo('FREE'))
        .addColumn('plan_period', 'text', (c) => c.notNull().defaultTo('none'))
        .addColumn('count_characters', 'integer', (c) => c.notNull())
        .addColumn('count_characters_per_convert', 'integer', (c) => c.notNull())
        .addColumn('count_characters_added', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addCheckConstraint('users_count_characters_not_negative', sql`count_characters >= 0`)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('users').execute();
    },
  },
  '0002-user-keys': {
    async up(db: Kysely<unknown>) {
      // Single-use links sent by mail (email validation, password reset). Only a SHA-256 of the
      // key is stored, so a leaked database cannot be turned into working links.
      await db.schema
        .createTable('user_keys')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('user_keys_user_purpose')
        .on('user_keys')
        .columns(['user_id', 'purpose'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('user_keys').execute();
    },
  },
  '0003-content': {
    async up(db: Kysely<unknown>) {
      // Seeded from content/ at start (services/content/seed-repository.ts): the files are the source of
      // truth, these tables what the calls read. JSON values (sections, tags) are text.
      await db.schema
        .createTable('content_languages')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('native_name', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('templates', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('content_pages')
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('sections', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('content_pages_pk', ['language', 'slug'])
        .execute();
      await db.schema
        .createTable('content_articles')
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('translation_key', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('preview', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('cover_image', 'text')
        .addColumn('cover_alt', 'text')
        .addColumn('published_time', 'text', (c) => c.notNull())
        .addColumn('modified_time', 'text', (c) => c.notNull())
        .addColumn('words_count', 'integer', (c) => c.notNull())
        .addColumn('time_to_read', 'integer', (c) => c.notNull())
        .addColumn('content_html', 'text', (c) => c.notNull())
        .addColumn('is_on_main_page', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('content_articles_pk', ['language', 'slug'])
        .execute();
      await db.schema
        .createIndex('content_articles_translation')
        .on('content_articles')
        .column('translation_key')
        .execute();
      // What the last seed was made from (a hash of the files), so an unchanged tree is skipped.
      await db.schema
        .createTable('content_state')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('content_state').execute();
      await db.schema.dropTable('content_articles').execute();
      await db.schema.dropTable('content_pages').execute();
      await db.schema.dropTable('content_languages').execute();
    },
  },
  '0004-conversions': {
    async up(db: Kysely<unknown>) {
      // Converted audio waiting to be played, downloaded or saved. The id is random (128 bits)
      // and is the audio's address, so it cannot be guessed.
      await db.schema
        .createTable('conversions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('visitor_id', 'text')
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('duration', 'double precision', (c) => c.notNull())
        .addColumn('characters', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('conversions_expires_at')
        .on('conversions')
        .column('expires_at')
        .execute();
      // Characters spent by anonymous visitors, per visitor cookie and per IP address, in
      // periods; the conditional update in the usage repository keeps them under the limit.
      await db.schema
        .createTable('visitor_usage')
        .addColumn('visitor_key', 'text', (c) => c.primaryKey())
        .addColumn('characters_used', 'integer', (c) => c.notNull())
        .addColumn('period_start', 'text', (c) => c.notNull())
        .addCheckConstraint('visitor_usage_not_negative', sql`characters_used >= 0`)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('visitor_usage').execute();
      await db.schema.dropTable('conversions').execute();
    },
  },
  '0005-payments-and-files': {
    async up(db: Kysely<unknown>) {
      // The card provider's ids for a user: their customer and their default payment method.
      await db.schema.alterTable('users').addColumn('payment_customer_id', 'text').execute();
      await db.schema.alterTable('users').addColumn('payment_method_id', 'text').execute();
      // One row per payment attempt. The (user, idempotency key) pair makes a retried attempt
      // find its first row instead of charging again; the plan changes in the same transaction
      // that marks the row succeeded (features/payment/payment-service.ts).
      await db.schema
        .createTable('payments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('plan_type', 'text', (c) => c.notNull())
        .addColumn('amount_cents', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('provider_payment_id', 'text', (c) => c.unique())
        .addColumn('message', 'text')
        .addColumn('card_name', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('payments_user_attempt', ['user_id', 'idempotency_key'])
        .execute();
      // Saved files: metadata here, bytes in the file storage under storage_key. The bytes are
      // written first, so a row always names bytes that exist.
      await db.schema
        .createTable('files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('length', 'double precision', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('voice', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('language_code', 'text', (c) => c.notNull())
        .addColumn('voice_id', 'text', (c) => c.notNull())
        .addColumn('audio_format', 'text', (c) => c.notNull())
        .addColumn('audio_sample_rate', 'integer', (c) => c.notNull())
        .addColumn('effect', 'text')
        .addColumn('master_speed', 'integer', (c) => c.notNull())
        .addColumn('master_volume', 'integer', (c) => c.notNull())
        .addColumn('master_pitch', 'integer', (c) => c.notNull())
        .addColumn('ssml', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('files_user')
        .on('files')
        .columns(['user_id', 'updated_at'])
        .execute();
      await db.schema.createIndex('files_updated_at').on('files').column('updated_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('files').execute();
      await db.schema.dropTable('payments').execute();
      await db.schema.alterTable('users').dropColumn('payment_method_id').execute();
      await db.schema.alterTable('users').dropColumn('payment_customer_id').execute();
    },
  },
  '0006-sessions-invoices-login-failures': {
    async up(db: Kysely<unknown>) {
      // Tokens ended by logout, by their jti, kept until the token would have expired anyway
      // (docs/decisions/013-logout-revokes-by-jti.md).
      await db.schema
        .createTable('revoked_tokens')
        .addColumn('jti', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('revoked_tokens_expires_at')
        .on('revoked_tokens')
        .column('expires_at')
        .execute();
      // Until when one request holds a payment attempt while it talks to the provider, so of
      // identical concurrent requests only one charges (features/payment/payment-service.ts).
      await db.schema.alterTable('payments').addColumn('charging_until', 'text').execute();
      // Consecutive wrong passwords per address (known or not), for the progressive delay.
      await db.schema
        .createTable('login_failures')
        .addColumn('address', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_failed_at', 'text', (c) => c.notNull())
        .execute();
      // Named counters (invoice numbers): `update … set value = value + 1 returning value`
      // holds the row until the transaction ends, so two invoices never share a number.
      await db.schema
        .createTable('counters')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'integer', (c) => c.notNull())
        .execute();
      await sql`insert into counters (name, value) values ('invoice', 0)`.execute(db);
      // One invoice per succeeded payment, with the billing details as they were when paid.
      // Invoices are accounting records: deleting the account detaches them (set null), it
      // does not erase them.
      await db.schema
        .createTable('invoices')
        .addColumn('number', 'integer', (c) => c.primaryKey())
        .addColumn('payment_id', 'text', (c) =>
          c.unique().references('payments.id').onDelete('set null'),
        )
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('plan_type', 'text', (c) => c.notNull())
        .addColumn('amount_cents', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('billing', 'text', (c) => c.notNull())
        .addColumn('issued_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('invoices').execute();
      await db.schema.dropTable('counters').execute();
      await db.schema.dropTable('login_failures').execute();
      await db.schema.dropTable('revoked_tokens').execute();
      await db.schema.alterTable('payments').dropColumn('charging_until').execute();
    },
  },
  '0007-api-keys': {
    async up(db: Kysely<unknown>) {
      // API keys (issue 16): only a hash is kept; `prefix` is what the user recognises.
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();
      // Answers of `POST /api/v1/speech` by Idempotency-Key, so a retried call is not charged
      // again; kept a day.
      await db.schema
        .createTable('idempotent_requests')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('conversion_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotent_requests_pk', ['user_id', 'key'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('idempotent_requests').execute();
      await db.schema.dropTable('api_keys').execute();
    },
  },
  '0008-jobs': {
    async up(db: Kysely<unknown>) {
      // Long documents as jobs (issue 19): the job, and its text in parts of a few thousand
      // characters, each rendered, charged and stored once (features/jobs/runner.ts).
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('output_format', 'text', (c) => c.notNull())
        .addColumn('characters', 'integer', (c) => c.notNull())
        .addColumn('chapters', 'text', (c) => c.notNull())
        .addColumn('audio_key', 'text')
        .addColumn('duration', 'double precision')
        .addColumn('error', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_user_id').on('jobs').column('user_id').execute();
      await db.schema.createIndex('jobs_status').on('jobs').column('status').execute();
      await db.schema
        .createTable('job_parts')
        .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('chapter', 'integer', (c) => c.notNull())
        .addColumn('part', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('characters', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('duration', 'double precision')
        .addPrimaryKeyConstraint('job_parts_pk', ['job_id', 'chapter', 'part'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('job_parts').execute();
      await db.schema.dropTable('jobs').execute();
    },
  },
  '0009-job-audio-size': {
    async up(db: Kysely<unknown>) {
      // A finished job is listed in File History with its size, as saved files are.
      await db.schema.alterTable('jobs').addColumn('audio_size', 'bigint').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').dropColumn('audio_size').execute();
    },
  },
  '0010-job-part-times': {
    async up(db: Kysely<unknown>) {
      // When a part's rendering began and ended: the speed a job's time left is told from
      // (docs/decisions/032-job-progress.md).
      await db.schema.alterTable('job_parts').addColumn('started_at', 'text').execute();
      await db.schema.alterTable('job_parts').addColumn('rendered_at', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('job_parts').dropColumn('rendered_at').execute();
      await db.schema.alterTable('job_parts').dropColumn('started_at').execute();
    },
  },
  '0011-conversion-intents': {
    async up(db: Kysely<unknown>) {
      // A conversion charged and not yet stored, held by its server through a lease: a server
      // killed mid-conversion leaves its intents to run out, and they are refunded
      // (services/conversion/intent-repository.ts, docs/decisions/037).
      await db.schema
        .createTable('conversion_intents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('visitor_keys', 'text')
        .addColumn('characters', 'integer', (c) => c.notNull())
        .addColumn('lease_owner', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text', (c) => c.notNull())
        .addColumn('refunded_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('conversion_intents_lease_until')
        .on('conversion_intents')
        .column('lease_until')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('conversion_intents').execute();
    },
  },
  '0012-lexicons': {
    async up(db: Kysely<unknown>) {
      // Pronunciation lexicons (issue 32): a user's, by name; the entries are one JSON text,
      // replaced whole as a PUT replaces the lexicon. A default lexicon has its place among
      // the user's defaults (1 first); null when it is not one.
      await db.schema
        .createTable('lexicons')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('default_position', 'integer')
        .addColumn('entry_count', 'integer', (c) => c.notNull())
        .addColumn('entries', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('lexicons_user_name', ['user_id', 'name'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('lexicons').execute();
    },
  },
  '0013-admin': {
    async up(db: Kysely<unknown>) {
      // The operator's console (issue 31, docs/decisions/044-operator-console.md): accounts an
      // administrator disabled, the audit log of console actions (append-only: triggers refuse
      // to change or remove a row), the sign-ins of each account, and the contact form's
      // messages (stored as well as mailed).
      await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
      // The row the changes of administrators lock (services/admin/administrators.ts).
      await sql`insert into counters (name, value) values ('administrator-changes', 0)`.execute(db);
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // No foreign keys: the record outlives the accounts it names.
        .addColumn('actor_id', 'text')
        .addColumn('actor_email', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('audit_log_created_at')
        .on('audit_log')
        .columns(['created_at', 'id'])
        .execute();
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
          begin raise exception 'the audit log is append-only'; end $$`.execute(db);
        await sql`create trigger audit_log_append_only before update or delete on audit_log
          for each row execute function audit_log_append_only()`.execute(db);
      } else {
        for (const event of ['update', 'delete']) {
          await sql`create trigger ${sql.raw(`audit_log_no_${event}`)} before ${sql.raw(event)}
            on audit_log begin select raise(abort, 'the audit log is append-only'); end`.execute(
            db,
          );
        }
      }
      await db.schema
        .createTable('sign_ins')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sign_ins_user_created_at')
        .on('sign_ins')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('contact_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('contact_messages_created_at')
        .on('contact_messages')
        .column('created_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('contact_messages').execute();
      await db.schema.dropTable('sign_ins').execute();
      await db.schema.dropTable('audit_log').execute();
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        await sql`drop function audit_log_append_only()`.execute(db);
      }
      await sql`delete from counters where name = 'administrator-changes'`.execute(db);
      await db.schema.alterTable('users').dropColumn('disabled_at').execute();
    },
  },
  '0014-refunds': {
    async up(db: Kysely<unknown>) {
      // Refunds from the console (issue 31 §5, docs/decisions/051-refunds-and-invoice-pdfs.md).
      // `amount_refunded_cents` is reserved by one conditional update before the provider is
      // called, so two refunds racing never exceed the payment; the charge's id and the
      // characters a payment gave are kept for the console and for taking them back.
      await db.schema
        .alterTable('payments')
        .addColumn('amount_refunded_cents', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('payments').addColumn('provider_charge_id', 'text').execute();
      await db.schema.alterTable('payments').addColumn('count_characters', 'integer').execute();
      await db.schema
        .createTable('refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('payment_id', 'text', (c) =>
          c.notNull().references('payments.id').onDelete('cascade'),
        )
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('amount_cents', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('characters', 'text', (c) => c.notNull())
        .addColumn('characters_taken', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('provider_refund_id', 'text')
        .addColumn('message', 'text')
        .addColumn('actor_id', 'text')
        .addColumn('actor_email', 'text')
        // A lease while one request talks to the provider, as payments.charging_until.
        .addColumn('processing_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('refunds_payment_key', ['payment_id', 'idempotency_key'])
        .execute();
      await db.schema
        .createIndex('payments_created_at')
        .on('payments')
        .column('created_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('payments_created_at').execute();
      await db.schema.dropTable('refunds').execute();
      await db.schema.alterTable('payments').dropColumn('count_characters').execute();
      await db.schema.alterTable('payments').dropColumn('provider_charge_id').execute();
      await db.schema.alterTable('payments').dropColumn('amount_refunded_cents').execute();
    },
  },
  '0015-usage-log': {
    async up(db: Kysely<unknown>) {
      // The console's overview (issue 31, docs/decisions/053-console-overview.md): one row per
      // conversion and per job that ended, kept when the conversion's audio expires (an hour,
      // a day) and when the job is deleted, so the figures of past days stay. The user is
      // forgotten (set null) when the account is deleted; the counts stay.
      await db.schema
        .createTable('usage_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('voice', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('characters', 'integer', (c) => c.notNull())
        .addColumn('duration', 'double precision', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('usage_log_created_at')
        .on('usage_log')
        .column('created_at')
        .execute();
      // The overview counts sign-ups, sign-ins and revenue per day over a period.
      await db.schema.createIndex('users_created_at').on('users').column('created_at').execute();
      await db.schema
        .createIndex('sign_ins_created_at')
        .on('sign_ins')
        .column('created_at')
        .execute();
      // Payments by day have theirs since 0014; refunds are taken off revenue by their day.
      await db.schema
        .createIndex('refunds_created_at')
        .on('refunds')
        .column('created_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('refunds_created_at').execute();
      await db.schema.dropIndex('sign_ins_created_at').execute();
      await db.schema.dropIndex('users_created_at').execute();
      await db.schema.dropTable('usage_log').execute();
    },
  },
  '0016-voice-settings': {
    // The operator's hidden voices and languages and default voice per language (decision 052).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('voice_settings')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('default_voice_id', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('voice_settings_pkey', ['kind', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('voice_settings').execute();
    },
  },
  '0017-content-documents': {
    // The content edited in the console (issue 31 §2, decision 054): each page and article as
    // the text of its file, the draft and what visitors see, with every revision kept.
    // content_pages and content_articles stay the published view the site reads.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('content_documents')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('draft', 'text', (c) => c.notNull())
        .addColumn('published', 'text')
        .addColumn('publish_at', 'text')
        .addColumn('seeded', 'text')
        .addColumn('published_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('content_documents_pkey', ['kind', 'language', 'slug'])
        .execute();
      await db.schema
        .createIndex('content_documents_publish_at')
        .on('content_documents')
        .column('publish_at')
        .execute();
      await db.schema
        .createTable('content_revisions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('actor_email', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('content_revisions_document')
        .on('content_revisions')
        .columns(['kind', 'language', 'slug', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('content_revisions').execute();
      await db.schema.dropTable('content_documents').execute();
    },
  },
  '0018-plans': {
    // The plans' terms in the database, edited in the console (decision 055): one row per plan
    // type, seeded at start from PLAN_* (or the defaults) only where a row is missing. A
    // payment records the terms it bought, and its buyer keeps them: a later change of the
    // plan applies to new purchases only.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('plans')
        .addColumn('plan_type', 'text', (c) => c.primaryKey())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('count_characters', 'bigint', (c) => c.notNull())
        .addColumn('count_characters_per_convert', 'bigint', (c) => c.notNull())
        .addColumn('storage_bytes', 'bigint', (c) => c.notNull())
        // Comma-separated engines (neural,standard).
        .addColumn('engines', 'text', (c) => c.notNull())
        // Null while the row is the seed's.
        .addColumn('updated_at', 'text')
        .execute();
      // JSON of the PlanTerms bought (null: paid before 0018, or not yet priced).
      await db.schema.alterTable('payments').addColumn('terms', 'text').execute();
      // JSON of the PlanTerms the user's plan was bought (or given) with; null: the plan's now.
      await db.schema.alterTable('users').addColumn('plan_terms', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('plan_terms').execute();
      await db.schema.alterTable('payments').dropColumn('terms').execute();
      await db.schema.dropTable('plans').execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
