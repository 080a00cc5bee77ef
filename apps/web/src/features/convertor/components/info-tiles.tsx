import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { PRODUCT_NAME } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import type { ConvertorTexts } from '../lib/page-sections';

/** The convertor page's "Why Parla" tiles, just below the editor. */
export function InfoTiles({ tiles }: { tiles: ConvertorTexts['tiles'] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid
      component="section"
      aria-label={t('convertor.why', { product: PRODUCT_NAME })}
      cols={{ base: 1, sm: 2, md: tiles.length >= 4 ? 4 : 3 }}
      spacing="lg"
    >
      {tiles.map((tile) => (
        <Card key={tile.label} withBorder padding="lg">
          <Title order={3} fz="lg" mb="xs">
            {tile.label}
          </Title>
          <Text c="dimmed" size="sm">
            {tile.content}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
