import { Affix, Button, Menu, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import {
  describeLanguage,
  isLocalisedPath,
  localizePath,
  SITE_LANGUAGES,
} from '../../lib/languages';
import { Flag } from '../flags';
import { ChevronDownIcon } from '../icons';

interface LanguageSwitcherProps {
  /** The route language ('default' for English). */
  language: string;
  /** The current path without its language prefix. */
  path: string;
  /** The query string to keep (?tag= on the blog). */
  search: string;
}

/**
 * SPEC §2 "Global": fixed at the bottom left of public pages. Shows the current language with its flag; the others are links
 * to the same page in that language.
 */
export function LanguageSwitcher({ language, path, search }: LanguageSwitcherProps) {
  const current = describeLanguage(language);
  // A path that has no language variant ("any other path" showing the convertor) switches to
  // the convertor in that language.
  const target = isLocalisedPath(path) ? path : '/convertor';
  const others = SITE_LANGUAGES.filter((candidate) => candidate.code !== current.code);

  return (
    <Affix position={{ bottom: 16, left: 16 }} zIndex={150}>
      <Menu position="top-start" shadow="md" width={200} withinPortal={false}>
        <Menu.Target>
          <Button
            variant="default"
            h={44}
            leftSection={<Flag code={current.code} />}
            rightSection={<ChevronDownIcon size={16} />}
            style={{ boxShadow: 'var(--mantine-shadow-md)' }}
          >
            <VisuallyHidden>Language: </VisuallyHidden>
            <Text component="span" fz="sm" lang={current.locale}>
              {current.nativeName}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown aria-label="Languages">
          {others.map((other) => (
            <Menu.Item
              key={other.code}
              component={Link}
              to={`${localizePath(target, other.code)}${search}`}
              leftSection={<Flag code={other.code} />}
              lang={other.locale}
              hrefLang={other.locale}
            >
              {other.nativeName}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Affix>
  );
}
