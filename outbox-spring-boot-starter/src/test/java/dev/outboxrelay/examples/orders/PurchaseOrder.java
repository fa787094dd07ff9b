package dev.outboxrelay.examples.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order, written through JPA. */
@Entity
@Table(name = "orders")
public class PurchaseOrder {
  @Id private String id;
  private String item;
  private int quantity;

  protected PurchaseOrder() {}

  public PurchaseOrder(String id, String item, int quantity) {
    this.id = id;
    this.item = item;
    this.quantity = quantity;
  }

  public String getId() {
    return id;
  }

  public String getItem() {
    return item;
  }

  public int getQuantity() {
    return quantity;
  }
}
