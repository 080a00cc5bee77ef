import {
  type AdminAuditList,
  AdminAuditListSchema,
  type AdminAvailableVoices,
  AdminAvailableVoicesSchema,
  type AdminContactMessage,
  type AdminContactMessageList,
  AdminContactMessageListSchema,
  AdminContactMessageSchema,
  type AdminHealth,
  AdminHealthSchema,
  type AdminLanguageInput,
  type AdminMessageQuery,
  type AdminOverview,
  type AdminOverviewQuery,
  AdminOverviewSchema,
  type AdminPaymentDetail,
  AdminPaymentDetailSchema,
  type AdminPaymentList,
  AdminPaymentListSchema,
  type AdminPaymentStatus,
  type AdminPlanList,
  AdminPlanListSchema,
  type AdminPlanTermsInput,
  type AdminRefundInput,
  type AdminUser,
  type AdminUserDetail,
  AdminUserDetailSchema,
  type AdminUserList,
  AdminUserListSchema,
  type AdminUserQuery,
  AdminUserSchema,
  type AdminVoiceCatalogue,
  AdminVoiceCatalogueSchema,
  type AdminVoiceInstallState,
  AdminVoiceInstallStateSchema,
  type ApiKey,
  ApiKeysSchema,
  type ApiSpeechInput,
  type ApiSpeechResult,
  ApiSpeechResultSchema,
  type ContactMessageStatus,
  type CreatedApiKey,
  CreatedApiKeySchema,
  type Engine,
  ErrorResponseSchema,
  type Language,
  type Lexicon,
  type LexiconInput,
  type LexiconList,
  LexiconListSchema,
  type LexiconRenameInput,
  LexiconSchema,
  MessageResponseSchema,
  PLS_MEDIA_TYPE,
  type PlanType,
  type Profile,
  ProfileSchema,
  type SpeechMark,
  SpeechMarksSchema,
  VoicesResponseSchema,
} from '@parla/contract';
import * as z from 'zod/mini';

/**
 * A typed client of Parla's public API (docs/api.md), written against the same schemas the
 * server validates with (@parla/contract): every answer is checked, every failure is a
 * `ParlaApiError` with the status and the fields the server named.
 */
export interface ParlaClientOptions {
  /** The server, e.g. `https://parla.example.com`. */
  baseUrl: string;
  /** An API key (`parla_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** A login token instead (needed to manage keys). */
  token?: string;
  /** Another fetch (tests, proxies); default the global one. */
  fetch?: typeof fetch;
}

export class ParlaApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The fields the server named (`{path, message}`). */
    readonly errors: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ParlaApiError';
  }
}

/** Audio from `speak`, with the facts the server sends beside it. */
export interface SpokenAudio {
  audio: Uint8Array;
  contentType: string;
  /** Characters charged. */
  characters: number;
  audioPath: string | undefined;
  marksPath: string | undefined;
  subtitlesPath: string | undefined;
  /** True when an Idempotency-Key retry got the first answer again. */
  replayed: boolean;
}

const lexiconPath = (name: string) => `/api/lexicons/${encodeURIComponent(name)}`;
const adminUserPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;
const adminPaymentPath = (id: string) => `/api/admin/payments/${encodeURIComponent(id)}`;
/** `?a=1&b=x` of the values given (none: ''). */
const queryOf = (values: Record<string, string | number | undefined>) => {
  const query = new URLSearchParams(
    Object.entries(values).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, String(value)]],
    ),
  );
  return query.size > 0 ? `?${query}` : '';
};

export class ParlaClient {
  private readonly fetch: typeof fetch;
  private readonly base: string;

  constructor(private readonly options: ParlaClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  /** POST /api/v1/speech: the audio of `input` (only `text` is required). */
  async speak(
    input: ApiSpeechInput,
    options: { idempotencyKey?: string } = {},
  ): Promise<SpokenAudio> {
    const response = await this.request('POST', '/api/v1/speech', input, {
      accept: 'audio/*',
      ...(options.idempotencyKey && { 'idempotency-key': options.idempotencyKey }),
    });
    const header = (name: string) => response.headers.get(name) ?? undefined;
    return {
      audio: new Uint8Array(await response.arrayBuffer()),
      contentType: header('content-type') ?? '',
      characters: Number(header('x-parla-characters') ?? 0),
      audioPath: header('x-parla-audio-path'),
      marksPath: header('x-parla-marks-path'),
      subtitlesPath: header('x-parla-subtitles-path'),
      replayed: header('idempotent-replayed') === 'true',
    };
  }

  /** POST /api/v1/speech with Accept: application/json: where the audio is, and its duration. */
  async speakJson(input: ApiSpeechInput): Promise<ApiSpeechResult> {
    const response = await this.request('POST', '/api/v1/speech', input, {
      accept: 'application/json',
    });
    return this.parse(response, ApiSpeechResultSchema);
  }

  /** GET /api/convertor/voices: languages with their voices, filtered. */
  async voices(filter: { language?: string; engine?: Engine } = {}): Promise<Language[]> {
    const query = new URLSearchParams(
      Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    const suffix = query.size > 0 ? `?${query}` : '';
    return this.parse(
      await this.request('GET', `/api/convertor/voices${suffix}`),
      VoicesResponseSchema,
    );
  }

  /** The word timings of a conversion (`marksPath` of `speak`). */
  async marks(path: string): Promise<SpeechMark[]> {
    return this.parse(await this.request('GET', path), SpeechMarksSchema);
  }

  /** GET /api/account/profile: the user and their plan (characters left). */
  async profile(): Promise<Profile> {
    return this.parse(await this.request('GET', '/api/account/profile'), ProfileSchema);
  }

  /** GET /api/account/api_keys (with a login token). */
  async apiKeys(): Promise<ApiKey[]> {
    return this.parse(await this.request('GET', '/api/account/api_keys'), ApiKeysSchema);
  }

  /** POST /api/account/api_keys (with a login token): the key, shown this once. */
  async createApiKey(name: string): Promise<CreatedApiKey> {
    return this.parse(
      await this.request('POST', '/api/account/api_keys', { name }),
      CreatedApiKeySchema,
    );
  }

  /** DELETE /api/account/api_keys/{id} (with a login token). */
  async revokeApiKey(id: string): Promise<string> {
    const response = await this.request(
      'DELETE',
      `/api/account/api_keys/${encodeURIComponent(id)}`,
    );
    return (await this.parse(response, MessageResponseSchema)).message;
  }

  /** GET /api/lexicons: the pronunciation lexicons, and how many the plan allows. */
  async lexicons(): Promise<LexiconList> {
    return this.parse(await this.request('GET', '/api/lexicons'), LexiconListSchema);
  }

  /** GET /api/lexicons/{name}: a lexicon with its entries. */
  async lexicon(name: string): Promise<Lexicon> {
    return this.parse(await this.request('GET', lexiconPath(name)), LexiconSchema);
  }

  /** GET /api/lexicons/{name} as a W3C PLS 1.0 file (Polly's and ElevenLabs' format). */
  async exportLexicon(name: string): Promise<string> {
    return (
      await this.request('GET', lexiconPath(name), undefined, { accept: PLS_MEDIA_TYPE })
    ).text();
  }

  /** PUT /api/lexicons/{name} as JSON: creates or replaces the lexicon whole. */
  async putLexicon(name: string, input: LexiconInput): Promise<Lexicon> {
    return this.parse(await this.request('PUT', lexiconPath(name), input), LexiconSchema);
  }

  /**
   * PUT /api/lexicons/{name} with a PLS file; `default` sets whether conversions that name no
   * lexicons apply it (left out: as it was).
   */
  async importLexicon(name: string, pls: string, options: { default?: boolean } = {}) {
    const query = options.default === undefined ? '' : `?default=${options.default}`;
    const response = await this.request(
      'PUT',
      `${lexiconPath(name)}${query}`,
      undefined,
      { 'content-type': PLS_MEDIA_TYPE },
      pls,
    );
    return this.parse(response, LexiconSchema);
  }

  /**
   * POST /api/lexicons/{name}/rename: the lexicon under a new name, its entries and default
   * place kept (409 when the name is taken; the same name changes nothing).
   */
  async renameLexicon(name: string, to: string): Promise<Lexicon> {
    const input: LexiconRenameInput = { name: to };
    const response = await this.request('POST', `${lexiconPath(name)}/rename`, input);
    return this.parse(response, LexiconSchema);
  }

  /** DELETE /api/lexicons/{name}. */
  async deleteLexicon(name: string): Promise<string> {
    const response = await this.request('DELETE', lexiconPath(name));
    return (await this.parse(response, MessageResponseSchema)).message;
  }

  /**
   * The operator console's calls (/api/admin, docs/api.md "Operator console API"): a login
   * token of an administrator; an API key is refused.
   */
  readonly admin = {
    /** GET /api/admin/users: users whose address contains `query`, a page at a time. */
    users: async (query: Partial<AdminUserQuery> = {}): Promise<AdminUserList> =>
      this.parse(
        await this.request('GET', `/api/admin/users${queryOf(query)}`),
        AdminUserListSchema,
      ),
    /** GET /api/admin/users/{id}: plan, usage, files, jobs, keys, payments, sign-ins. */
    user: async (id: string): Promise<AdminUserDetail> =>
      this.parse(await this.request('GET', adminUserPath(id)), AdminUserDetailSchema),
    /** POST /api/admin/users/{id}/characters: grant (positive) or remove (negative). */
    characters: async (id: string, characters: number, reason: string): Promise<AdminUser> =>
      this.parse(
        await this.request('POST', `${adminUserPath(id)}/characters`, { characters, reason }),
        AdminUserSchema,
      ),
    /** PUT /api/admin/users/{id}/plan: the plan without a charge. */
    plan: async (id: string, type: AdminUser['plan']['type'], reason: string) =>
      this.parse(
        await this.request('PUT', `${adminUserPath(id)}/plan`, { type, reason }),
        AdminUserSchema,
      ),
    /** PUT /api/admin/users/{id}/role. */
    role: async (id: string, role: AdminUser['role']): Promise<AdminUser> =>
      this.parse(await this.request('PUT', `${adminUserPath(id)}/role`, { role }), AdminUserSchema),
    /** POST /api/admin/users/{id}/disable or /enable. */
    setDisabled: async (id: string, disabled: boolean): Promise<AdminUser> =>
      this.parse(
        await this.request('POST', `${adminUserPath(id)}/${disabled ? 'disable' : 'enable'}`),
        AdminUserSchema,
      ),
    /** POST /api/admin/users/{id}/validation-mail. */
    resendValidation: async (id: string): Promise<string> =>
      (
        await this.parse(
          await this.request('POST', `${adminUserPath(id)}/validation-mail`),
          MessageResponseSchema,
        )
      ).message,
    /** DELETE /api/admin/users/{id}: the account with everything saved in it. */
    deleteUser: async (id: string): Promise<string> =>
      (await this.parse(await this.request('DELETE', adminUserPath(id)), MessageResponseSchema))
        .message,
    /** GET /api/admin/messages: the contact form's messages, newest first. */
    messages: async (query: Partial<AdminMessageQuery> = {}): Promise<AdminContactMessageList> =>
      this.parse(
        await this.request('GET', `/api/admin/messages${queryOf(query)}`),
        AdminContactMessageListSchema,
      ),
    /** PUT /api/admin/messages/{id}: its status. */
    messageStatus: async (id: string, status: ContactMessageStatus): Promise<AdminContactMessage> =>
      this.parse(
        await this.request('PUT', `/api/admin/messages/${encodeURIComponent(id)}`, { status }),
        AdminContactMessageSchema,
      ),
    /** GET /api/admin/audit: the audit log, newest first. */
    audit: async (query: { page?: number; per_page?: number } = {}): Promise<AdminAuditList> =>
      this.parse(
        await this.request('GET', `/api/admin/audit${queryOf(query)}`),
        AdminAuditListSchema,
      ),
    /** GET /api/admin/payments: by part of the payer's email, status and period (days, UTC). */
    payments: async (
      query: {
        email?: string;
        status?: AdminPaymentStatus;
        from?: string;
        to?: string;
        page?: number;
        per_page?: number;
      } = {},
    ): Promise<AdminPaymentList> =>
      this.parse(
        await this.request('GET', `/api/admin/payments${queryOf(query)}`),
        AdminPaymentListSchema,
      ),
    /** GET /api/admin/payments/{id}: provider ids, plan, invoice number, refunds. */
    payment: async (id: string): Promise<AdminPaymentDetail> =>
      this.parse(await this.request('GET', adminPaymentPath(id)), AdminPaymentDetailSchema),
    /**
     * POST /api/admin/payments/{id}/refunds: whole (no amount_cents) or part. Send the same
     * `idempotencyKey` again to retry the same refund (it is never made twice).
     */
    refund: async (
      id: string,
      input: AdminRefundInput,
      idempotencyKey: string,
    ): Promise<AdminPaymentDetail> =>
      this.parse(
        await this.request('POST', `${adminPaymentPath(id)}/refunds`, input, {
          'idempotency-key': idempotencyKey,
        }),
        AdminPaymentDetailSchema,
      ),
    /** GET /api/admin/payments/{id}/invoice.pdf: the invoice's PDF bytes. */
    invoicePdf: async (id: string): Promise<Uint8Array> =>
      new Uint8Array(
        await (
          await this.request('GET', `${adminPaymentPath(id)}/invoice.pdf`, undefined, {
            accept: 'application/pdf',
          })
        ).arrayBuffer(),
      ),
    /** GET /api/admin/overview: figures per UTC day from `from` to `to` (default 30 days). */
    overview: async (query: AdminOverviewQuery = {}): Promise<AdminOverview> =>
      this.parse(
        await this.request('GET', `/api/admin/overview${queryOf(query)}`),
        AdminOverviewSchema,
      ),
    /** GET /api/admin/overview/health: providers, engines, the speech queue and workers. */
    health: async (): Promise<AdminHealth> =>
      this.parse(await this.request('GET', '/api/admin/overview/health'), AdminHealthSchema),
    /** GET /api/admin/voices: every voice, hidden or not, with the settings and installed voices. */
    voices: async (): Promise<AdminVoiceCatalogue> =>
      this.parse(await this.request('GET', '/api/admin/voices'), AdminVoiceCatalogueSchema),
    /** PUT /api/admin/voices/voice: hide a voice from the site and the API, or offer it again. */
    setVoiceHidden: async (voiceId: string, hidden: boolean): Promise<AdminVoiceCatalogue> =>
      this.parse(
        await this.request('PUT', '/api/admin/voices/voice', { voice_id: voiceId, hidden }),
        AdminVoiceCatalogueSchema,
      ),
    /** PUT /api/admin/voices/language: hide a whole language, or set its default voice. */
    setLanguage: async (input: AdminLanguageInput): Promise<AdminVoiceCatalogue> =>
      this.parse(
        await this.request('PUT', '/api/admin/voices/language', input),
        AdminVoiceCatalogueSchema,
      ),
    /** GET /api/admin/voices/available: the Kokoro models and Piper voices to install. */
    availableVoices: async (): Promise<AdminAvailableVoices> =>
      this.parse(
        await this.request('GET', '/api/admin/voices/available'),
        AdminAvailableVoicesSchema,
      ),
    /** POST /api/admin/voices/install (`name`), GET (its progress), DELETE (cancels it). */
    install: async (name?: string | null): Promise<AdminVoiceInstallState> =>
      this.parse(
        name === undefined
          ? await this.request('GET', '/api/admin/voices/install')
          : name === null
            ? await this.request('DELETE', '/api/admin/voices/install')
            : await this.request('POST', '/api/admin/voices/install', { name }),
        AdminVoiceInstallStateSchema,
      ),
    /** DELETE /api/admin/voices/installed/{name}: the voice's files leave the server. */
    removeVoice: async (name: string): Promise<AdminVoiceCatalogue> =>
      this.parse(
        await this.request('DELETE', `/api/admin/voices/installed/${encodeURIComponent(name)}`),
        AdminVoiceCatalogueSchema,
      ),
    /** GET /api/admin/plans: every plan's terms now. */
    plans: async (): Promise<AdminPlanList> =>
      this.parse(await this.request('GET', '/api/admin/plans'), AdminPlanListSchema),
    /** PUT /api/admin/plans/{type}: a plan's whole terms, for purchases made from now on. */
    setPlan: async (type: PlanType, terms: AdminPlanTermsInput): Promise<AdminPlanList> =>
      this.parse(await this.request('PUT', `/api/admin/plans/${type}`, terms), AdminPlanListSchema),
  };

  private async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    /** A body sent as it is (its content-type in `headers`), instead of JSON. */
    raw?: string,
  ): Promise<Response> {
    const secret = this.options.apiKey ?? this.options.token;
    const response = await this.fetch(`${this.base}${path}`, {
      method,
      headers: {
        ...(secret && { authorization: `Bearer ${secret}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : raw !== undefined && { body: raw }),
    });
    if (!response.ok) {
      const text = await response.text();
      let parsed: z.infer<typeof ErrorResponseSchema> | undefined;
      try {
        const json: unknown = JSON.parse(text);
        const checked = ErrorResponseSchema.safeParse(json);
        if (checked.success) parsed = checked.data;
      } catch {
        // Not JSON: the status says enough.
      }
      throw new ParlaApiError(
        response.status,
        parsed?.message ?? `${method} ${path} answered ${response.status}`,
        parsed?.errors ?? [],
      );
    }
    return response;
  }

  private async parse<T>(response: Response, schema: z.core.$ZodType<T>): Promise<T> {
    const checked = z.safeParse(schema, await response.json());
    if (!checked.success) {
      throw new ParlaApiError(response.status, `Unexpected answer: ${checked.error.message}`);
    }
    return checked.data;
  }
}
