import { useEffect, useRef } from 'react';
import classes from './audio-player.module.css';

interface WaveformCanvasProps {
  /** Normalised bar heights (0..1) of the audio so far. */
  bars: readonly number[];
  /** The played part, 0..1. */
  progress: number;
}

/** The smallest bar drawn, as a share of the height: silence still shows where the audio is. */
const MIN_BAR = 0.04;

/**
 * The waveform drawn on a canvas at the screen's pixel density, played bars in the primary
 * colour (the canvas's CSS `color`), the rest in `--wave-rest`; redrawn as bars arrive, as it
 * plays and when its box changes size. The slider around it carries its name and value.
 */
export function WaveformCanvas({ bars, progress }: WaveformCanvasProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawn = useRef({ bars, progress });
  drawn.current = { bars, progress };

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const draw = () => {
      const context = element.getContext('2d');
      if (!context) return;
      const ratio = window.devicePixelRatio || 1;
      const width = Math.round(element.clientWidth * ratio);
      const height = Math.round(element.clientHeight * ratio);
      if (element.width !== width) element.width = width;
      if (element.height !== height) element.height = height;
      context.clearRect(0, 0, width, height);
      const { bars: heights, progress: played } = drawn.current;
      if (heights.length === 0 || width === 0) return;
      const style = getComputedStyle(element);
      const colours = { played: style.color, rest: style.getPropertyValue('--wave-rest').trim() };
      const step = width / heights.length;
      const gap = step > 3 * ratio ? ratio : 0;
      heights.forEach((value, index) => {
        const bar = Math.max(MIN_BAR, value) * height;
        context.fillStyle = index / heights.length < played ? colours.played : colours.rest;
        context.fillRect(index * step, (height - bar) / 2, Math.max(1, step - gap), bar);
      });
    };
    draw();
    const resized = new ResizeObserver(draw);
    resized.observe(element);
    return () => resized.disconnect();
  });

  return <canvas ref={canvas} className={classes.canvas} />;
}
