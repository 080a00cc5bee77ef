import {
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  type AdminOverview,
  AdminOverviewQuerySchema,
  addDays,
  fieldErrors,
  type OverviewDay,
  type OverviewFigures,
  overviewPeriod,
  utcDay,
} from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { overviewQueryOptions } from '../api/overview';
import { AdminPage, ScrollTable } from './admin-page';
import { type ChartSeries, OverviewChart } from './overview-chart';
import { OverviewHealth } from './overview-health';

/** The periods offered in one click, in days up to today. */
const PRESETS = [7, 30, 90, 365] as const;

type Figure = keyof OverviewFigures;

/** Each figure, in the order shown, with the key of its name. */
const FIGURE_WORDS = {
  sign_ups: 'overview.figures.sign_ups',
  active_users: 'overview.figures.active_users',
  conversions: 'overview.figures.conversions',
  characters: 'overview.figures.characters',
  audio_minutes: 'overview.figures.audio_minutes',
  revenue_cents: 'overview.figures.revenue_cents',
  errors: 'overview.figures.errors',
} as const satisfies Record<Figure, string>;
const FIGURES = Object.keys(FIGURE_WORDS) as Figure[];

/** Numbers, money, minutes and days as the page's language writes them. */
function useOverviewFormat() {
  const { number, locale } = useFormat();
  return useMemo(() => {
    const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' });
    const minutes = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    return {
      locale,
      figure: (figure: Figure, value: number) =>
        figure === 'revenue_cents'
          ? money.format(value / 100)
          : figure === 'audio_minutes'
            ? minutes.format(value)
            : number(value),
      day: (value: string) => day.format(new Date(`${value}T00:00:00Z`)),
    };
  }, [locale, number]);
}

/** The period picker: a few periods in one click, or any two days (UTC). */
function PeriodPicker({
  period,
  onPeriod,
}: {
  period: { from: string; to: string };
  onPeriod: (period: { from: string; to: string }) => void;
}) {
  const { t } = useTranslation('admin');
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const choose = (next: { from: string; to: string }) => {
    setFrom(next.from);
    setTo(next.to);
    setErrors({});
    onPeriod(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = AdminOverviewQuerySchema.safeParse({ from, to });
    const found: Record<string, string> = {};
    if (!parsed.success) {
      for (const { path, message } of fieldErrors(parsed.error)) found[path] ??= message;
    }
    setErrors(found);
    if (parsed.success) onPeriod(overviewPeriod(parsed.data));
  };
  const today = utcDay(new Date());
  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="wrap" role="group" aria-label={t('overview.presets')}>
        {PRESETS.map((days) => {
          const preset = { from: addDays(today, 1 - days), to: today };
          const chosen = preset.from === period.from && preset.to === period.to;
          return (
            <Button
              key={days}
              variant={chosen ? 'filled' : 'default'}
              aria-pressed={chosen}
              h={44}
              onClick={() => choose(preset)}
            >
              {t('overview.lastDays', { count: days })}
            </Button>
          );
        })}
      </Group>
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            type="date"
            label={t('overview.from')}
            value={from}
            onChange={(event) => setFrom(event.currentTarget.value)}
            error={errors.from}
            styles={{ input: { minHeight: 44 } }}
          />
          <TextInput
            type="date"
            label={t('overview.to')}
            value={to}
            onChange={(event) => setTo(event.currentTarget.value)}
            error={errors.to}
            styles={{ input: { minHeight: 44 } }}
          />
          <Button type="submit" h={44} mt={25}>
            {t('overview.show')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section">
      <Title order={2} fz="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** The figures of the period: totals, a chart of each, then every day in a table. */
function Figures({ overview }: { overview: AdminOverview }) {
  const { t } = useTranslation('admin');
  const format = useOverviewFormat();
  const days = useMemo(() => overview.days.map((day) => day.day), [overview]);
  const charts = useMemo(() => {
    const values = (figure: Figure) => overview.days.map((day) => day[figure]);
    const chart = (figures: Figure[], colors: string[]) => ({
      key: figures.join('-'),
      figures,
      series: figures.map(
        (figure, index): ChartSeries => ({
          label: t(FIGURE_WORDS[figure]),
          values: values(figure),
          color: colors[index] ?? 'blue',
        }),
      ),
      format: (value: number) => format.figure(figures[0] ?? 'conversions', value),
    });
    return [
      chart(['conversions'], ['blue']),
      chart(['characters'], ['indigo']),
      chart(['audio_minutes'], ['teal']),
      chart(['revenue_cents'], ['green']),
      chart(['sign_ups', 'active_users'], ['violet', 'orange']),
      chart(['errors'], ['red']),
    ];
  }, [overview, t, format]);
  /** A chart's words for those who do not see it: each series' total and best day. */
  const summary = (figures: Figure[]) =>
    figures
      .map((figure) => {
        const best = overview.days.reduce<OverviewDay | undefined>(
          (top, day) => (!top || day[figure] > top[figure] ? day : top),
          undefined,
        );
        return t('overview.summary', {
          figure: t(FIGURE_WORDS[figure]),
          total: format.figure(figure, overview.totals[figure]),
          best: best ? format.figure(figure, best[figure]) : '0',
          day: best ? format.day(best.day) : '',
        });
      })
      .join(' ');
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm">
        {FIGURES.map((figure) => (
          <Paper key={figure} withBorder p="sm" radius="md">
            <Text size="sm" c="dimmed">
              {t(FIGURE_WORDS[figure])}
            </Text>
            <Text fw={700} fz="xl" data-testid={`overview-total-${figure}`}>
              <Ltr>{format.figure(figure, overview.totals[figure])}</Ltr>
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {charts.map((chart) => (
          <OverviewChart
            key={chart.key}
            title={chart.series.map((series) => series.label).join(' · ')}
            summary={summary(chart.figures)}
            days={days}
            series={chart.series}
            format={chart.format}
            locale={format.locale}
          />
        ))}
      </SimpleGrid>
      <Section title={t('overview.perDay')}>
        <ScrollTable label={t('overview.perDay')} minWidth={840}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('overview.day')}</Table.Th>
                {FIGURES.map((figure) => (
                  <Table.Th key={figure} scope="col">
                    {t(FIGURE_WORDS[figure])}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...overview.days].reverse().map((day) => (
                <Table.Tr key={day.day} data-testid={`overview-day-${day.day}`}>
                  <Table.Th scope="row" fw={500}>
                    {format.day(day.day)}
                  </Table.Th>
                  {FIGURES.map((figure) => (
                    <Table.Td key={figure}>
                      <Ltr>{format.figure(figure, day[figure])}</Ltr>
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      </Section>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <TopTable
          title={t('overview.topVoices')}
          minWidth={420}
          names={[t('overview.voice'), t('overview.language')]}
          rows={overview.top_voices.map((voice) => ({
            key: `${voice.engine}/${voice.voice}/${voice.language}`,
            names: [voice.voice, voice.language],
            ...voice,
          }))}
          format={format}
        />
        <TopTable
          title={t('overview.topLanguages')}
          minWidth={320}
          names={[t('overview.language')]}
          rows={overview.top_languages.map((language) => ({
            key: language.language,
            names: [language.language],
            ...language,
          }))}
          format={format}
        />
      </SimpleGrid>
    </>
  );
}

/**
 * One of the period's top lists (voices, languages): the names that say what was used (ids and
 * codes, left to right on every page), then its conversions and characters.
 */
function TopTable({
  title,
  minWidth,
  names,
  rows,
  format,
}: {
  title: string;
  minWidth: number;
  names: string[];
  rows: Array<{ key: string; names: string[]; conversions: number; characters: number }>;
  format: Pick<ReturnType<typeof useOverviewFormat>, 'figure'>;
}) {
  const { t } = useTranslation('admin');
  return (
    <Section title={title}>
      <ScrollTable label={title} minWidth={minWidth}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              {names.map((name) => (
                <Table.Th key={name} scope="col">
                  {name}
                </Table.Th>
              ))}
              <Table.Th scope="col">{t('overview.figures.conversions')}</Table.Th>
              <Table.Th scope="col">{t('overview.figures.characters')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                {row.names.map((name, column) => (
                  <Table.Td key={names[column]}>
                    <Ltr>{name}</Ltr>
                  </Table.Td>
                ))}
                <Table.Td>{format.figure('conversions', row.conversions)}</Table.Td>
                <Table.Td>{format.figure('characters', row.characters)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {rows.length === 0 && <Text c="dimmed">{t('overview.noUse')}</Text>}
    </Section>
  );
}

/**
 * The console's landing page (issue 31 section 1, decision 053): the figures of a period
 * chosen (the last 30 days first), the top voices and languages, and the speech service's
 * health.
 */
export function OverviewPage() {
  const { t } = useTranslation('admin');
  const [period, setPeriod] = useState(() => overviewPeriod({}));
  const overview = useQuery(overviewQueryOptions(period.from, period.to));
  return (
    <AdminPage title={t('overview.title')} description={t('overview.description')}>
      <PeriodPicker period={period} onPeriod={setPeriod} />
      {overview.isError && (
        <Alert color="red" role="alert">
          {overview.error.message || t('common.failed')}
        </Alert>
      )}
      {overview.data && <Figures overview={overview.data} />}
      <Section title={t('overview.health.title')}>
        <OverviewHealth />
      </Section>
    </AdminPage>
  );
}
