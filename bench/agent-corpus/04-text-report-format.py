import textwrap

items = [("Coffee beans", 3, 12.5), ("Oat milk", 6, 2.25), ("Croissant", 12, 1.8), ("Espresso machine descaler", 1, 9.99)]
width = 44
print("=" * width)
print("{:^{w}}".format("INVOICE #2024-0117", w=width))
print("=" * width)
total = 0
for name, qty, price in items:
    line = qty * price
    total += round(line * 100)
    label = textwrap.shorten(name, width=20, placeholder="...")
    print(f"{label:<20} {qty:>3} x {price:>6.2f} = {line:>8.2f}")
print("-" * width)
print("{:<32}{:>12.2f}".format("Total", total / 100))
print("{:<32}{:>12.2%}".format("VAT rate", 0.2))
note = ("Thank you for your order. Payment is due within thirty days of the invoice date. "
        "Late payments may incur a fee of 1.5% per month on the outstanding balance.")
print(textwrap.fill(note, width=width, initial_indent="  ", subsequent_indent="  "))
print(textwrap.indent(textwrap.dedent("""\
    Contact:
      billing@example.com
      +1 555 0100"""), "> "))
