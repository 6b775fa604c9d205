interface EvLogoProps {
  size?: number;
}

/** The charging network's mark: a bolt in a rounded square. Inline, so it needs no network. */
export function EvLogo({ size = 40 }: EvLogoProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label="EV Charging logo">
      <title>EV Charging logo</title>
      <rect width="32" height="32" rx="8" fill="#0b8f5f" />
      <path d="M18.5 4 8 18h7l-1.5 10L24 14h-7z" fill="#fff" />
    </svg>
  );
}
