class Item {
  constructor(sku, name, qty, price) { Object.assign(this, { sku, name, qty, price }); }
  get value() { return this.qty * this.price; }
}
class Inventory {
  #items = new Map();
  add(item) { this.#items.set(item.sku, item); return this; }
  lowStock(limit) { return [...this.#items.values()].filter(i => i.qty < limit).map(i => i.sku); }
  total() { return [...this.#items.values()].reduce((s, i) => s + i.value, 0); }
}
const inv = new Inventory().add(new Item('A1', 'bolt', 120, 0.25)).add(new Item('B2', 'nut', 8, 0.1)).add(new Item('C3', 'gear', 3, 12.5));
console.log('low:', inv.lowStock(10).join(','));
console.log('total:', inv.total().toFixed(2));
console.log(new Item('D4', 'cog', 2, 4));
