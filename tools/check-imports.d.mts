export function wrongImports(root: string): { problems: string[]; checked: number };
