/** The Node.js line the project runs on (package.json engines): an older one stops here with the way to get it. */
export function requireNode24() {
  if (Number(process.versions.node.split('.')[0]) >= 24) return;
  console.error(
    `This project runs on Node.js 24 LTS; this is ${process.version}. Get it with: npm install -g --prefix /usr/local node@24`,
  );
  process.exit(1);
}
