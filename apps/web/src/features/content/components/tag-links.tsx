import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { localizePath } from '../../../lib/languages';
import { tagLink } from '../lib/blog';

interface TagLinksProps {
  tags: string[];
  /** The tag of the current filter, marked as the current page. */
  current?: string;
  language: string;
  label: string;
  /** Labels shown instead of the tag itself ('All' in the page language). */
  labels?: Record<string, string>;
  size?: 'xs' | 'sm';
}

/** Tags as links to the filtered blog list (/blog?tag=…), the current one filled. */
export function TagLinks({
  tags,
  current,
  language,
  label,
  labels = {},
  size = 'sm',
}: TagLinksProps) {
  return (
    <Group component="ul" gap="xs" aria-label={label} p={0} m={0} style={{ listStyle: 'none' }}>
      {tags.map((tag) => {
        const active = current !== undefined && tag.toLowerCase() === current.toLowerCase();
        return (
          <li key={tag}>
            <Button
              component={Link}
              to={localizePath(tagLink(tag), language)}
              size={size}
              radius="xl"
              variant={active ? 'filled' : 'light'}
              aria-current={active ? 'page' : undefined}
              mih={size === 'sm' ? 44 : undefined}
            >
              {labels[tag] ?? tag}
            </Button>
          </li>
        );
      })}
    </Group>
  );
}
