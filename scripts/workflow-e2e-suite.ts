/**
 * An end-to-end suite standing in for a user's `npm run e2e` in the workflow's e2e-through-proxy
 * job (workflow-jobs.test.ts): it sends what a client of the API sends, to PETSTORE_PROXY_URL,
 * and fails (exit 1) only when its own expectations fail, as a real suite would. With
 * E2E_BASE_URL set it talks to that address instead: a suite that bypasses the proxy by mistake.
 */
const base = process.env.E2E_BASE_URL ?? process.env.PETSTORE_PROXY_URL;
const key = process.env.PETSTORE_API_KEY;
if (base === undefined || key === undefined) {
  console.error('e2e: set PETSTORE_PROXY_URL (the proxy does) and PETSTORE_API_KEY');
  process.exit(2);
}
const auth = { Authorization: `Bearer ${key}` };
const listed = await fetch(`${base}/pets?limit=2`, { headers: auth });
const created = await fetch(`${base}/pets`, {
  method: 'POST',
  headers: { ...auth, 'Content-Type': 'application/json' },
  body: JSON.stringify({ name: 'e2e-Nemo', categoryId: 3 }),
});
const pet = (await created.json()) as { id?: number };
const read = await fetch(`${base}/pets/${pet.id}`, { headers: auth });
// A client that forgot its key: the suite expects the refusal.
const refused = await fetch(`${base}/pets`);
await Promise.all([listed.text(), read.text(), refused.text()]);
const ok = listed.status === 200 && created.status === 201 && refused.status === 401;
console.log(`e2e: ${ok ? 'passed' : 'failed'}`);
process.exitCode = ok ? 0 : 1;
