import { describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILE_URL } from '../config.ts';
import { tileImageSource } from './security-headers.ts';

describe('tileImageSource', () => {
  it('allows the origin of the tile template', () => {
    expect(tileImageSource(DEFAULT_MAP_TILE_URL)).toBe('https://tile.openstreetmap.org');
    expect(tileImageSource('http://Tiles.Local:8080/osm/{z}/{x}/{y}.png')).toBe('http://tiles.local:8080');
  });

  it('turns a {s} subdomain placeholder into a CSP wildcard', () => {
    expect(tileImageSource('https://{s}.tile.openstreetmap.fr/hot/{z}/{x}/{y}.png')).toBe(
      'https://*.tile.openstreetmap.fr',
    );
  });

  it('adds nothing without tiles or for tiles served by this server', () => {
    expect(tileImageSource(null)).toBeNull();
    expect(tileImageSource('')).toBeNull();
    expect(tileImageSource('/tiles/{z}/{x}/{y}.png')).toBeNull();
  });

  it('keeps a scheme-relative template scheme-relative', () => {
    expect(tileImageSource('//tiles.example.com/{z}/{x}/{y}.png')).toBe('tiles.example.com');
  });

  it('refuses a host the policy cannot express, naming the variable', () => {
    expect(() => tileImageSource('https://tiles.{s}.example.com/{z}/{x}/{y}.png')).toThrow(/MAP_TILE_URL/);
    expect(() => tileImageSource('https://user@tiles.example.com/{z}/{x}/{y}.png')).toThrow(/MAP_TILE_URL/);
    expect(() => tileImageSource('https://tiles.example.com;script-src */{z}.png')).toThrow(/MAP_TILE_URL/);
  });
});
