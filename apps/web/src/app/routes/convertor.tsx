import { Anchor, Card, Group, SegmentedControl, SimpleGrid, Text, Title } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { Page } from '../../components/page';
import { useRouteLanguage } from '../../hooks/use-route-language';

const TILES = [
  {
    title: '130+ languages',
    text: 'From Arabic to Welsh: pick a language and hear your text in it.',
  },
  {
    title: '700+ voices',
    text: 'Neural and standard voices, each with the effects it supports.',
  },
  {
    title: 'Full SSML control',
    text: 'Pauses, speed, volume, pitch, say-as and emphasis, by hand or from the toolbar.',
  },
];

/** The editor home. The editor, player and voice settings arrive with the convertor feature. */
export default function ConvertorPage() {
  const { to, path } = useRouteLanguage();
  const navigate = useNavigate();
  const { search } = useLocation();
  const mode = path.endsWith('/ssml') ? 'ssml' : 'text';
  return (
    <Page
      title="Text to speech convertor"
      heading="Turn your text into natural speech"
      description="Type or paste plain text or SSML, choose a voice, and listen in your browser: Parla speaks more than 130 languages with 700+ voices."
    >
      <Group justify="space-between" mb="lg" wrap="wrap" gap="sm">
        <Title order={2} fz="xl">
          Editor
        </Title>
        <SegmentedControl
          aria-label="Editor mode"
          value={mode}
          onChange={(value) => void navigate(`${to(`/convertor/${value}`)}${search}`)}
          data={[
            { value: 'text', label: 'Text' },
            { value: 'ssml', label: 'SSML' },
          ]}
        />
      </Group>
      <Text mb="xl">
        {mode === 'ssml'
          ? 'Write speech markup directly: every tag of the toolbar is plain SSML you can edit.'
          : 'Write or paste plain text; Parla adds a short pause at every new line.'}{' '}
        Want to download and keep your audio?{' '}
        <Anchor component={Link} to={to('/pricing')}>
          See the plans
        </Anchor>
        .
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {TILES.map((tile) => (
          <Card key={tile.title} withBorder padding="lg">
            <Title order={3} fz="lg" mb="xs">
              {tile.title}
            </Title>
            <Text c="dimmed">{tile.text}</Text>
          </Card>
        ))}
      </SimpleGrid>
    </Page>
  );
}
