import {
  Alert,
  Badge,
  Card,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { AdminVoiceCatalogue, AdminVoiceLanguage } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../components/ltr';
import { useVoiceChange, voiceCatalogueQueryOptions } from '../api/admin-voices';
import { AdminPage, Pager, ScrollTable } from './admin-page';
import { VoiceInstalls } from './voices-installs';

const ALL = 'all';
const PER_PAGE = 50;

export const VOICE_SORTS = ['catalogue', 'name', 'language', 'gender'] as const;
export type VoiceSort = (typeof VOICE_SORTS)[number];

export interface VoiceFilters {
  query: string;
  language: string;
  provider: string;
  gender: string;
  kind: string;
  installed: string;
  hidden: string;
  sort: VoiceSort;
}

export const NO_FILTERS: VoiceFilters = {
  query: '',
  language: ALL,
  provider: ALL,
  gender: ALL,
  kind: ALL,
  installed: ALL,
  hidden: ALL,
  sort: 'catalogue',
};

/** The voices of the catalogue that pass the filters, each with its language, in the order asked. */
export function filterVoices(catalogue: AdminVoiceCatalogue, filters: VoiceFilters) {
  const query = filters.query.trim().toLowerCase();
  const found = catalogue.languages.flatMap((language) =>
    filters.language !== ALL && language.language_code !== filters.language
      ? []
      : language.voices
          .filter(
            (voice) =>
              (!query ||
                voice.name.toLowerCase().includes(query) ||
                voice.id.toLowerCase().includes(query)) &&
              (filters.provider === ALL || (voice.provider ?? '') === filters.provider) &&
              (filters.gender === ALL || voice.gender === filters.gender) &&
              (filters.kind === ALL || voice.engine === filters.kind) &&
              (filters.installed === ALL ||
                Boolean(voice.installed) === (filters.installed === 'yes')) &&
              (filters.hidden === ALL ||
                (voice.hidden || language.hidden) === (filters.hidden === 'hidden')),
          )
          .map((voice) => ({ voice, language })),
  );
  const keyOf: Record<Exclude<VoiceSort, 'catalogue'>, (row: (typeof found)[number]) => string> = {
    name: (row) => row.voice.name,
    language: (row) => row.language.language_name,
    gender: (row) => row.voice.gender,
  };
  if (filters.sort === 'catalogue') return found;
  const key = keyOf[filters.sort];
  // A stable sort: within one key, the catalogue's order.
  return found.toSorted((a, b) => key(a).localeCompare(key(b)));
}

const distinct = (values: string[]) => [...new Set(values.filter(Boolean))].sort();

/** A language's own settings: offered or hidden, and the voice it starts on. */
function LanguageSettings({
  language,
  onDone,
}: {
  language: AdminVoiceLanguage;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation('admin');
  const change = useVoiceChange();
  const code = language.language_code;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="language-settings">
      <Stack gap="sm">
        <Title order={2} size="h4" id="language-settings">
          {t('voices.language.title', { name: language.language_name })} <Ltr>({code})</Ltr>
        </Title>
        <Switch
          label={t('voices.language.offered')}
          description={t('voices.language.offeredHint')}
          checked={!language.hidden}
          disabled={change.isPending}
          onChange={(event) => {
            const hidden = !event.currentTarget.checked;
            change.mutate(
              { kind: 'language', input: { language_code: code, hidden } },
              {
                onSuccess: () =>
                  onDone(
                    t(hidden ? 'voices.done.languageHidden' : 'voices.done.languageShown', {
                      name: language.language_name,
                    }),
                  ),
              },
            );
          }}
        />
        <Select
          label={t('voices.language.default')}
          description={t('voices.language.defaultHint')}
          data={[
            { value: '', label: t('voices.language.catalogueOrder') },
            ...language.voices
              .filter((voice) => !voice.hidden)
              .map((voice) => ({ value: voice.id, label: `${voice.name} (${voice.id})` })),
          ]}
          value={language.default_voice_id ?? ''}
          allowDeselect={false}
          searchable
          disabled={change.isPending}
          onChange={(value) => {
            const chosen = language.voices.find((voice) => voice.id === value);
            change.mutate(
              { kind: 'language', input: { language_code: code, default_voice_id: value || null } },
              {
                onSuccess: () =>
                  onDone(
                    chosen
                      ? t('voices.done.defaultSet', {
                          name: language.language_name,
                          voice: chosen.name,
                        })
                      : t('voices.done.defaultCleared', { name: language.language_name }),
                  ),
              },
            );
          }}
          maw={480}
          styles={{ input: { minHeight: 44 } }}
        />
        {change.isError && (
          <Alert color="red" role="alert">
            {change.error.message}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

/**
 * Voices (issue 31 §6, decision 052): the whole catalogue with filters, each voice and each
 * language shown on the site or hidden, a language's default voice, and the natural voices
 * installed on the server.
 */
export function VoicesPage() {
  const { t } = useTranslation('admin');
  const catalogue = useQuery(voiceCatalogueQueryOptions);
  const change = useVoiceChange();
  const [filters, setFilters] = useState<VoiceFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  // What the last change did, said afterwards (DESIGN.md, the operator's console).
  const [done, setDone] = useState<string | null>(null);
  const set = (key: Exclude<keyof VoiceFilters, 'sort'>) => (value: string | null) => {
    setFilters((current) => ({ ...current, [key]: value ?? ALL }));
    setPage(1);
  };
  const data = catalogue.data;
  const voices = useMemo(() => (data ? filterVoices(data, filters) : []), [data, filters]);
  const choices = useMemo(() => {
    const all = data?.languages.flatMap((language) => language.voices) ?? [];
    return {
      languages: (data?.languages ?? []).map((language) => ({
        value: language.language_code,
        label: `${language.language_name} (${language.language_code})`,
      })),
      providers: distinct(all.map((voice) => voice.provider ?? '')),
      genders: distinct(all.map((voice) => voice.gender)),
    };
  }, [data]);
  const chosenLanguage = data?.languages.find((l) => l.language_code === filters.language);
  const any = { value: ALL, label: t('voices.filters.any') };
  const select = (
    key: Exclude<keyof VoiceFilters, 'sort'>,
    label: string,
    options: { value: string; label: string }[],
  ) => (
    <Select
      label={label}
      data={[any, ...options]}
      value={filters[key]}
      onChange={set(key)}
      allowDeselect={false}
      searchable={options.length > 10}
      styles={{ input: { minHeight: 44 } }}
    />
  );
  const sortLabels: Record<VoiceSort, string> = {
    catalogue: t('voices.sorts.catalogue'),
    name: t('voices.sorts.name'),
    language: t('voices.sorts.language'),
    gender: t('voices.sorts.gender'),
  };
  const shown = voices.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  return (
    <AdminPage title={t('voices.title')} description={t('voices.description')}>
      {(catalogue.isError || change.isError) && (
        <Alert color="red" role="alert">
          {catalogue.error?.message || change.error?.message || t('common.failed')}
        </Alert>
      )}
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 4 }}
        component="form"
        role="search"
        aria-label={t('voices.filters.label')}
        onSubmit={(event) => event.preventDefault()}
      >
        <TextInput
          label={t('voices.filters.query')}
          value={filters.query}
          onChange={(event) => set('query')(event.currentTarget.value)}
          styles={{ input: { minHeight: 44 } }}
        />
        {select('language', t('voices.filters.language'), choices.languages)}
        {select(
          'provider',
          t('voices.filters.provider'),
          choices.providers.map((value) => ({ value, label: value })),
        )}
        {select(
          'gender',
          t('voices.filters.gender'),
          choices.genders.map((value) => ({ value, label: value })),
        )}
        {select('kind', t('voices.filters.kind'), [
          { value: 'neural', label: t('voices.kinds.neural') },
          { value: 'standard', label: t('voices.kinds.standard') },
        ])}
        {select('installed', t('voices.filters.installed'), [
          { value: 'yes', label: t('voices.filters.installedYes') },
          { value: 'no', label: t('voices.filters.installedNo') },
        ])}
        {select('hidden', t('voices.filters.hidden'), [
          { value: 'shown', label: t('voices.filters.shown') },
          { value: 'hidden', label: t('voices.filters.hiddenOnly') },
        ])}
        <Select
          label={t('voices.filters.sort')}
          data={VOICE_SORTS.map((value) => ({ value, label: sortLabels[value] }))}
          value={filters.sort}
          onChange={(value) => {
            const sort = VOICE_SORTS.find((known) => known === value);
            if (sort) setFilters((current) => ({ ...current, sort }));
          }}
          allowDeselect={false}
          styles={{ input: { minHeight: 44 } }}
        />
      </SimpleGrid>
      {!chosenLanguage && (
        <Text size="sm" c="dimmed">
          {t('voices.language.chooseHint')}
        </Text>
      )}
      {chosenLanguage && (
        <LanguageSettings
          key={chosenLanguage.language_code}
          language={chosenLanguage}
          onDone={setDone}
        />
      )}
      {done && (
        <Alert color="green" role="status">
          {done}
        </Alert>
      )}
      {data && (
        <Stack gap="sm">
          {voices.length === 0 && <Alert>{t('voices.none')}</Alert>}
          {voices.length > 0 && (
            <ScrollTable label={t('voices.table')} minWidth={860}>
              <Table striped verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('voices.columns.voice')}</Table.Th>
                    <Table.Th>{t('voices.columns.language')}</Table.Th>
                    <Table.Th>{t('voices.columns.gender')}</Table.Th>
                    <Table.Th>{t('voices.columns.kind')}</Table.Th>
                    <Table.Th>{t('voices.columns.provider')}</Table.Th>
                    <Table.Th>{t('voices.columns.offered')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map(({ voice, language }) => (
                    <Table.Tr key={`${language.language_code} ${voice.id}`}>
                      <Table.Td>
                        <Text fw={500}>{voice.name}</Text>
                        <Text size="xs" c="dimmed">
                          <Ltr>{voice.id}</Ltr>
                        </Text>
                        {language.default_voice_id === voice.id && (
                          <Badge variant="light" size="sm">
                            {t('voices.default')}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {language.language_name} <Ltr>({language.language_code})</Ltr>
                        {language.hidden && (
                          <Badge color="gray" variant="light" size="sm" ms={4}>
                            {t('voices.languageHidden')}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{voice.gender}</Table.Td>
                      <Table.Td>
                        {t(
                          voice.engine === 'neural'
                            ? 'voices.kinds.neural'
                            : 'voices.kinds.standard',
                        )}
                        {voice.installed && (
                          <Text size="xs" c="dimmed">
                            <Ltr>{voice.installed}</Ltr>
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{voice.provider ?? ''}</Table.Td>
                      <Table.Td>
                        <Switch
                          aria-label={t('voices.offer', { name: voice.name, id: voice.id })}
                          checked={!voice.hidden}
                          disabled={change.isPending}
                          onChange={(event) => {
                            const hidden = !event.currentTarget.checked;
                            change.mutate(
                              { kind: 'voice', input: { voice_id: voice.id, hidden } },
                              {
                                onSuccess: () =>
                                  setDone(
                                    t(
                                      hidden ? 'voices.done.voiceHidden' : 'voices.done.voiceShown',
                                      {
                                        name: voice.name,
                                      },
                                    ),
                                  ),
                              },
                            );
                          }}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          )}
          <Pager page={page} perPage={PER_PAGE} total={voices.length} onPage={setPage} />
        </Stack>
      )}
      {data && <VoiceInstalls installed={data.installed} onDone={setDone} />}
    </AdminPage>
  );
}
