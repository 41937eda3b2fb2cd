/**
 * A complete-table hierarchy (one table per class: Vehicle, Car, Truck) with a reference between
 * vehicles, for the tests that stream extents and query answers across its tables.
 */
export const VEHICLES_MODEL = `<jdo><package name="ct">
      <class name="Vehicle" identity-type="application"><inheritance strategy="complete-table"/>
        <field name="id" field-type="long" primary-key="true"/>
        <field name="name" field-type="java.lang.String"/>
        <field name="next" field-type="ct.Vehicle"/>
      </class>
      <class name="Car" persistence-capable-superclass="ct.Vehicle"><inheritance strategy="complete-table"/>
        <field name="seats" field-type="int"/>
      </class>
      <class name="Truck" persistence-capable-superclass="ct.Vehicle"><inheritance strategy="complete-table"/>
        <field name="load" field-type="double"/>
      </class>
    </package></jdo>`;
