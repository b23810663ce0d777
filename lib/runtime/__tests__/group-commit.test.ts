import { describe, expect, it } from "vitest";
import { groupCommit } from "@/lib/runtime/group-commit";

describe("groupCommit", () => {
  it("writes calls made together as one batch, and calls made during a write in the next", async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const submit = groupCommit(`test-${Math.random()}`, async (items: number[]) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((n) => n * 10);
    });
    const first = [1, 2, 3].map((n) => submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const second = [4, 5].map((n) => submit(n));
    release();
    expect(await Promise.all([...first, ...second])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("splits batches at max", async () => {
    const batches: number[][] = [];
    const submit = groupCommit(
      `test-${Math.random()}`,
      async (items: number[]) => {
        batches.push(items);
        return items;
      },
      { max: 2 },
    );
    await Promise.all([1, 2, 3, 4, 5].map((n) => submit(n)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("writes a failed batch again one by one, so only the bad item fails", async () => {
    const submit = groupCommit(`test-${Math.random()}`, async (items: number[]) => {
      if (items.includes(13)) throw new Error("bad item");
      return items.map(String);
    });
    const results = await Promise.allSettled([12, 13, 14].map((n) => submit(n)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(results[0]).toMatchObject({ value: "12" });
    expect(results[2]).toMatchObject({ value: "14" });
  });
});
