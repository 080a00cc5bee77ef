import { describe, expect, it } from 'vitest';
import { filterByTag, recentArticles, tagLink, tagsByUse } from './blog';

const articles = [
  { title: 'a', tags: ['SSML', 'Basics'], published_time: '2026-09-07T09:00:00.000Z' },
  { title: 'b', tags: ['SSML', 'Tips'], published_time: '2026-10-19T09:00:00.000Z' },
  { title: 'c', tags: ['Voices', 'Basics'], published_time: '2026-10-26T09:00:00.000Z' },
  { title: 'd', tags: ['Accessibility', 'Tips'], published_time: '2026-11-09T09:00:00.000Z' },
];

describe('blog list helpers', () => {
  it("'All' keeps every article; a tag keeps those that carry it, whatever its case", () => {
    expect(filterByTag(articles, 'All')).toHaveLength(4);
    expect(filterByTag(articles, 'ssml').map((a) => a.title)).toEqual(['a', 'b']);
    expect(filterByTag(articles, 'Nothing')).toEqual([]);
  });

  it('the sidebar shows the 3 most recent articles', () => {
    expect(recentArticles(articles).map((a) => a.title)).toEqual(['d', 'c', 'b']);
  });

  it('suggests the most used tags first', () => {
    expect(tagsByUse(articles)).toEqual(['Basics', 'SSML', 'Tips', 'Accessibility', 'Voices']);
  });

  it('links a tag to the filtered list', () => {
    expect(tagLink('All')).toBe('/blog');
    expect(tagLink('Voice design')).toBe('/blog?tag=Voice%20design');
  });
});
